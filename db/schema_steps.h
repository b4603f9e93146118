// The schema as ordered steps: step N (db/schema/NNN_*.sql) takes a database from version N-1 to N. A new
// database runs them all; an older one runs those above its PRAGMA user_version.
#pragma once

#include <span>
#include <string_view>

namespace flopscope {

struct SchemaStep {
  int version;            // the user_version after this step
  std::string_view name;  // the file it came from, for error messages
  std::string_view sql;
};

// Compiled into the library from db/schema/*.sql at build time.
std::span<const SchemaStep> schema_steps();

}  // namespace flopscope
