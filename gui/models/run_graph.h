// A run's computation graph when the run database has none: runs recorded before `profile` stored graphs,
// or by a collector that does not extract them. The graph is extracted from the run's own source model
// (RunInfo::source_path, found as written, then relative to the folders above the database, then beside it) when that file still exists and its
// SHA-256 matches the run's; otherwise the run stays without a graph and the reason is returned.
#pragma once

#include <string>

#include "db/model/run_data.h"
#include "db/model/status.h"

namespace flopscope::gui {

// Fills run.graph_nodes/graph_edges when they are empty. OK when the run has or now has a graph.
Status complete_graph_from_source(RunData& run, const std::string& run_path);

}  // namespace flopscope::gui
