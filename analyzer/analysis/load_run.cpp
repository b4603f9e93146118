#include "analyzer/analysis/load_run.h"

#include "analyzer/importers/importer.h"
#include "db/model/run_sink.h"
#include "db/run_database.h"
#include "db/trace_extras_table.h"

namespace flopscope {

namespace {

// extras, when given, receives the trace extras (db/model/trace_extras.h) of what was read.
StatusOr<RunData> load_from(const std::string& path, const TraceOptions& trace,
                            const RunReadOptions& read = {}, TraceExtras* extras = nullptr) {
  const auto imported = [&](MemoryRunSink& sink) -> StatusOr<RunData> {
    if (extras) *extras = std::move(sink.extras());
    return std::move(sink.data());
  };
  ImportOptions options;
  options.graph_capture = trace.graph_capture;
  options.iteration_marker = trace.iteration_marker;
  if (!trace.graph_capture.empty()) {
    if (looks_like_sqlite(path)) {
      return InvalidArgument(path + ": --graph-capture applies to PyTorch profiler traces, not SQLite files");
    }
    MemoryRunSink sink;
    FS_RETURN_IF_ERROR(import_trace(path, sink, options));
    return imported(sink);
  }
  if (looks_like_sqlite(path)) {
    auto run = read_run_database(path, read);
    if (run.ok() && !trace.iteration_marker.empty()) {
      return InvalidArgument(path +
                             ": --iteration-marker applies to traces; a run database's iterations were "
                             "found when it was imported (import the trace again with the marker)");
    }
    if (run.ok() && extras) {
      StatusOr<TraceExtras> stored = read_trace_extras(path);
      if (!stored.ok()) return stored.status();
      *extras = std::move(*stored);
    }
    if (run.ok()) return run;
    // Not a run database: it may be an Nsight Systems export. Damaged or too-new run databases keep
    // their own message.
    if (run.status().code() != StatusCode::kInvalidArgument) return run.status();
    MemoryRunSink sink;
    Status status = import_trace(path, sink, options);
    if (status.ok()) return imported(sink);
    if (status.code() != StatusCode::kInvalidArgument) return status;
    return InvalidArgument(path +
                           ": SQLite, but neither a flopscope run database nor an Nsight Systems export");
  }
  MemoryRunSink sink;
  FS_RETURN_IF_ERROR(import_trace(path, sink, options));
  return imported(sink);
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
  return load_from(path, {}, {.raw_rows = false});
}

StatusOr<RunData> load_run_summary(const std::string& path) {
  return load_from(path, {}, {.raw_rows = false, .need_summary_facts = true});
}

StatusOr<RunData> load_run_totals(const std::string& path, const TraceOptions& trace) {
  return load_from(path, trace, {.raw_rows = false});
}

StatusOr<RunData> load_run_summary(const std::string& path, const TraceOptions& trace) {
  return load_from(path, trace, {.raw_rows = false, .need_summary_facts = true});
}

StatusOr<RunData> load_stored_run_totals(const std::string& path) {
  if (!looks_like_sqlite(path)) return InvalidArgument(path + ": not a run database");
  return read_run_database(path, {.raw_rows = false});
}

StatusOr<RunData> load_run(const std::string& path) {
  return load_from(path, {});
}

StatusOr<RunData> load_run_with_extras(const std::string& path, const TraceOptions& trace,
                                       TraceExtras& extras) {
  return load_from(path, trace, {}, &extras);
}

StatusOr<RunData> load_run(const std::string& path, const std::string& graph_capture) {
  return load_from(path, {graph_capture, ""});
}

StatusOr<RunData> load_run(const std::string& path, const TraceOptions& trace) {
  return load_from(path, trace);
}

}  // namespace flopscope
