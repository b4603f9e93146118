// The aggregate tables of schema 007 (db/schema/007_aggregates.sql): written at the end of a run, read
// instead of the op and kernel rows by analyses that need only totals. Internal to db/.
#pragma once

#include "db/model/run_aggregates.h"
#include "db/sqlite/sqlite.h"

namespace flopscope {

// The first schema version whose files hold aggregates.
inline constexpr int kAggregatesSchemaVersion = 7;

Status write_aggregates(sqlite::Database& db, const RunAggregates& aggregates);
Status read_aggregates(sqlite::Database& db, RunAggregates& aggregates);

}  // namespace flopscope
