// Ordered schema migrations driven by PRAGMA user_version.
#pragma once

#include <span>

#include "db/schema_steps.h"
#include "db/sqlite/sqlite.h"

namespace flopscope {

// Applies, in order, every step whose version is above the database's user_version; each step runs in its
// own transaction together with the user_version update, so a failed step leaves the previous version.
// Steps must be numbered 1, 2, 3, ... A database newer than the last step is refused (Unsupported).
Status migrate(sqlite::Database& db, std::span<const SchemaStep> steps);

// The message for a database newer than this build: "FILE: run database schema version 7 is newer than
// this flopscope supports (1); upgrade flopscope".
Status too_new_error(const std::string& path, std::int64_t found, int supported);

}  // namespace flopscope
