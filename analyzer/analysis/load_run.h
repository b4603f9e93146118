// One entry point for every command that analyses a run (report, diff, graph, GUI): a flopscope run
// database is read as it is; a trace file (Kineto JSON[.gz], Nsight Systems SQLite, Nsight Compute CSV)
// is imported in memory. Anything else is a one-line error naming the file.
#pragma once

#include <string>

#include "db/model/run_data.h"
#include "db/model/status.h"
#include "db/model/trace_extras.h"

namespace flopscope {

// What a trace read directly takes from the command line (import takes the same in ImportOptions).
struct TraceOptions {
  std::string graph_capture;     // --graph-capture: a Kineto trace of the run's CUDA-graph capture
  std::string iteration_marker;  // --iteration-marker: a regular expression naming the iteration ranges
};

StatusOr<RunData> load_run(const std::string& path);
// With the trace's host events and device properties as recorded (export): from the run database's
// host_event table (schema 016), or from the trace imported here.
StatusOr<RunData> load_run_with_extras(const std::string& path, const TraceOptions& trace,
                                       TraceExtras& extras);
// With trace options; a run database refuses them (its iterations were decided when it was imported).
StatusOr<RunData> load_run(const std::string& path, const TraceOptions& trace);
StatusOr<RunData> load_run_totals(const std::string& path, const TraceOptions& trace);
StatusOr<RunData> load_run_summary(const std::string& path, const TraceOptions& trace);
// The same, for a Kineto trace with the trace of its CUDA-graph capture (see ImportOptions::graph_capture);
// graph_capture empty is load_run(path). A run database cannot take a capture.
StatusOr<RunData> load_run(const std::string& path, const std::string& graph_capture);

// The same for analyses that need only totals per module and op signature (diff): a run database with
// aggregates is read without its op and kernel rows (RunData::raw_rows false). Traces are imported whole.
StatusOr<RunData> load_run_totals(const std::string& path);
// The same for analyses that need only summarize() (report): a run database with summary facts (schema 010)
// is read without its op and kernel rows; one without them is read whole. Traces are imported whole.
StatusOr<RunData> load_run_summary(const std::string& path);
// The same for a run database only: anything else (a trace, an Nsight Systems export) is InvalidArgument
// without being imported. For a first view that must not cost a whole import (the GUI's preview).
StatusOr<RunData> load_stored_run_totals(const std::string& path);
// True when `path` is a flopscope run database (SQLite with the run schema), false for anything else.
bool is_run_database(const std::string& path);

}  // namespace flopscope
