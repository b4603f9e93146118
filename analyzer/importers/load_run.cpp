#include "analyzer/importers/load_run.h"

#include "analyzer/importers/importer.h"
#include "db/model/run_sink.h"
#include "db/run_database.h"

namespace flopscope {

bool is_run_database(const std::string& path) { return looks_like_sqlite(path) && read_run_database(path).ok(); }

StatusOr<RunData> load_run(const std::string& path) {
  if (looks_like_sqlite(path)) {
    auto run = read_run_database(path);
    if (run.ok()) return run;
    // Not a run database: it may be an Nsight Systems export. Damaged or too-new run databases keep
    // their own message.
    if (run.status().code() != StatusCode::kInvalidArgument) return run.status();
    MemoryRunSink sink;
    ImportOptions options;
    Status imported = import_trace(path, sink, options);
    if (imported.ok()) return std::move(sink.data());
    if (imported.code() != StatusCode::kInvalidArgument) return imported;
    return InvalidArgument(path + ": SQLite, but neither a flopscope run database nor an Nsight Systems export");
  }
  MemoryRunSink sink;
  ImportOptions options;
  FS_RETURN_IF_ERROR(import_trace(path, sink, options));
  return std::move(sink.data());
}

}  // namespace flopscope
