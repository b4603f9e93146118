// The run database: one SQLite file per run, the contract between capture and analysis.
// Schema: db/schema/*.sql (documented column by column); version in PRAGMA user_version.
#pragma once

#include <memory>
#include <string>

#include "db/model/run_data.h"
#include "db/model/run_sink.h"
#include "db/model/status.h"

namespace flopscope {

// The schema version this build writes and reads. Older databases are migrated on read; newer ones are
// refused with a message that names both versions.
int run_database_schema_version();

// A sink that writes to `path`: the run goes to a temporary file beside it (batched in transactions) and
// is renamed into place by finish(). Fails at once if `path` exists and !overwrite, or is not writable.
StatusOr<std::unique_ptr<RunSink>> create_run_database(const std::string& path, bool overwrite);

struct RunReadOptions {
  // false: leave the op and kernel rows unread when the file holds aggregates (schema 007) and no
  // dead-compute records (whose analysis walks the op tree); RunData::raw_rows says what was done.
  bool raw_rows = true;
  // With raw_rows false: also read the rows when the file holds no summary facts (schema 010), so that
  // summarize() is complete (report); without it, such a run gets the aggregates' partial summary (diff).
  bool need_summary_facts = false;
};

// Reads a run, with its aggregates: stored ones, or for a file older than schema 007 computed from its
// rows. Errors name the file: missing, not SQLite, not a run database, corrupt, too new.
StatusOr<RunData> read_run_database(const std::string& path, const RunReadOptions& options = {});

// A run database's kernel rows alone (the per-iteration device activity of a run read without its rows).
StatusOr<std::vector<KernelRecord>> read_run_kernels(const std::string& path);

// True when the file starts with the SQLite header (cheap sniff, no open).
bool looks_like_sqlite(const std::string& path);

}  // namespace flopscope
