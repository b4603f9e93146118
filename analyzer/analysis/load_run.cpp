#include "analyzer/analysis/load_run.h"

#include <algorithm>

#include "analyzer/importers/importer.h"
#include "db/model/input_limits.h"
#include "db/model/run_sink.h"
#include "db/run_database.h"

namespace flopscope {

namespace {

// Module paths grow with depth squared: bounded before any analysis builds them. Per-module times per
// iteration are sparse (analyzer/iteration_series.h), so modules x iterations needs no limit here; only
// the JSON report, which writes them dense, checks --max-cells.
Status check_limits(const std::string& path, const RunData& run) {
  const InputLimits& limits = input_limits();
  for (const auto& m : run.modules) {
    const auto depth = m.path.empty() ? 0 : 1 + std::count(m.path.begin(), m.path.end(), '.');
    if (depth > limits.max_module_depth) {
      return InvalidArgument(path + ": module hierarchy more than " +
                             std::to_string(limits.max_module_depth) +
                             " levels deep (--max-module-depth raises the limit)");
    }
  }
  return {};
}

StatusOr<RunData> load_unchecked(const std::string& path, const std::string& graph_capture,
                                 const RunReadOptions& read = {}) {
  if (!graph_capture.empty()) {
    if (looks_like_sqlite(path)) {
      return InvalidArgument(path + ": --graph-capture applies to PyTorch profiler traces, not SQLite files");
    }
    MemoryRunSink sink;
    ImportOptions options;
    options.graph_capture = graph_capture;
    FS_RETURN_IF_ERROR(import_trace(path, sink, options));
    return std::move(sink.data());
  }
  if (looks_like_sqlite(path)) {
    auto run = read_run_database(path, read);
    if (run.ok()) return run;
    // Not a run database: it may be an Nsight Systems export. Damaged or too-new run databases keep
    // their own message.
    if (run.status().code() != StatusCode::kInvalidArgument) return run.status();
    MemoryRunSink sink;
    ImportOptions options;
    Status imported = import_trace(path, sink, options);
    if (imported.ok()) return std::move(sink.data());
    if (imported.code() != StatusCode::kInvalidArgument) return imported;
    return InvalidArgument(path +
                           ": SQLite, but neither a flopscope run database nor an Nsight Systems export");
  }
  MemoryRunSink sink;
  ImportOptions options;
  FS_RETURN_IF_ERROR(import_trace(path, sink, options));
  return std::move(sink.data());
}

}  // namespace

bool is_run_database(const std::string& path) {
  if (!looks_like_sqlite(path)) return false;
  auto run = read_run_database(path, {.raw_rows = false});
  // One this build will not read (a newer schema, a hierarchy past --max-module-depth) is still a run
  // database.
  return run.ok() || run.status().code() == StatusCode::kUnsupported;
}

StatusOr<RunData> load_run_totals(const std::string& path) {
  FS_ASSIGN_OR_RETURN(RunData run, load_unchecked(path, "", {.raw_rows = false}));
  FS_RETURN_IF_ERROR(check_limits(path, run));
  return run;
}

StatusOr<RunData> load_run_summary(const std::string& path) {
  FS_ASSIGN_OR_RETURN(RunData run, load_unchecked(path, "", {.raw_rows = false, .need_summary_facts = true}));
  FS_RETURN_IF_ERROR(check_limits(path, run));
  return run;
}

StatusOr<RunData> load_stored_run_totals(const std::string& path) {
  if (!looks_like_sqlite(path)) return InvalidArgument(path + ": not a run database");
  FS_ASSIGN_OR_RETURN(RunData run, read_run_database(path, {.raw_rows = false}));
  FS_RETURN_IF_ERROR(check_limits(path, run));
  return run;
}

StatusOr<RunData> load_run(const std::string& path) {
  return load_run(path, "");
}

StatusOr<RunData> load_run(const std::string& path, const std::string& graph_capture) {
  FS_ASSIGN_OR_RETURN(RunData run, load_unchecked(path, graph_capture));
  FS_RETURN_IF_ERROR(check_limits(path, run));
  return run;
}

}  // namespace flopscope
