// The summary-fact tables of schema 010 (db/schema/010_summary_facts.sql): written at the end of a run by
// a sink that was given them, read instead of the op and kernel rows by `report`. Internal to db/.
#pragma once

#include <cstddef>

#include "db/model/run_data.h"
#include "db/sqlite/sqlite.h"

namespace flopscope {

// The first schema version whose files can hold summary facts.
inline constexpr int kSummaryFactsSchemaVersion = 10;

Status write_summary_facts(sqlite::Database& db, const SummaryFacts& facts);
// Reads the facts when the file has them (facts.present says so). Refuses, as corrupt, facts that name a
// module the run does not have or an iteration index past `iterations`.
Status read_summary_facts(sqlite::Database& db, const std::vector<ModuleRecord>& modules,
                          std::size_t iterations, SummaryFacts& facts);

}  // namespace flopscope
