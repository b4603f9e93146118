// How a file is recognised as a flopscope run database, and how one is opened for reading. Internal to db/.
#pragma once

#include <cstdint>
#include <span>
#include <string>

#include "db/schema_steps.h"
#include "db/sqlite/sqlite.h"

namespace flopscope {

// PRAGMA application_id of files flopscope writes ("FLPS"). Files with application_id 0 are accepted too
// (a run database built by hand or by an older tool); any other id is another program's file.
inline constexpr std::int32_t kRunDatabaseApplicationId = 0x464c5053;

// Checks the file before SQLite sees it: it exists, is a SQLite file, and is not shorter than its header
// says (a truncated copy). Errors: NotFound, InvalidArgument ("not a SQLite database"), Corrupt.
Status check_sqlite_file(const std::string& path);

// Opens a run database read-only and brings it to the schema `steps` describe: refuses files that are not
// run databases or are newer than the steps; an older file is copied into memory and migrated there, so
// the user's file is never changed.
// `file_version`, when given, receives the version the file was written with.
StatusOr<sqlite::Database> open_run_database(const std::string& path, std::span<const SchemaStep> steps,
                                             std::int64_t* file_version = nullptr);

}  // namespace flopscope
