// Opening what a user names on the command line as a run: a run database, or (when the importers are
// built) a trace file imported on the fly.
#pragma once

#include <string>

#include "db/model/run_data.h"
#include "db/model/status.h"

namespace flopscope::cli {

StatusOr<RunData> open_run(const std::string& path);
// A Kineto trace together with the trace of its CUDA-graph capture (--graph-capture).
StatusOr<RunData> open_run(const std::string& path, const std::string& graph_capture);

// Writes `text` to `path` atomically, or to stdout when path is empty or "-" (control characters made
// visible there: see terminal_safe).
Status emit_output(const std::string& path, const std::string& text, bool overwrite);

}  // namespace flopscope::cli
