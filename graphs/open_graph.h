// Opening a graph to draw, for every front end (`flopscope graph`, the GUI): a run (database or trace,
// through load_run) with its stored graph, or the graph re-extracted from the run's own source model when
// the run has none; or a TorchScript model's graph (no costs). One place decides where a graph comes from.
#pragma once

#include <functional>
#include <string>

#include "analyzer/summary.h"
#include "db/model/run_data.h"
#include "db/model/status.h"
#include "graphs/collapse.h"
#include "graphs/graph_model.h"

namespace flopscope::graphs {

// Fills run.graph_nodes/graph_edges when they are empty, from RunInfo::source_path (as written, then
// relative to the folders above the database, then beside it) when that file exists and its SHA-256
// matches the run's. OK when the run has or now has a graph; otherwise the reason, naming the files.
Status complete_graph_from_source(RunData& run, const std::string& run_path);

// The graph of an opened run (graph_node/graph_edge rows) with costs per iteration: FLOPs, time and bytes
// on nodes (matched to op calls) and module clusters (from the summary). A trace's run, which has no such
// rows, gets the graph of what ran (trace_graph.h), at most max_nodes nodes. Empty when the run has neither.
OpGraph run_op_graph(const RunData& run, const RunSummary& summary, std::string title,
                     std::size_t max_nodes = kDefaultMaxNodes);

// The graph of `path` with costs per iteration when it is a run: FLOPs, time and bytes on nodes and
// module clusters. The title is the file name. With `run`, also what the graph was drawn from (a model's
// file: its modules only), for aligning two versions' module paths (analyzer/diff/align.h).
// A trace's graph has at most max_nodes nodes. `iteration_marker`: --iteration-marker for a trace read
// directly (an error for a model or run database).
StatusOr<OpGraph> open_op_graph(const std::string& path, RunData* run = nullptr,
                                std::size_t max_nodes = kDefaultMaxNodes,
                                const std::string& iteration_marker = "");

// Rewrites every module path of the graph (nodes, module types and costs), e.g. to the paths a diff
// aligned it to; node identities follow.
void rename_modules(OpGraph& graph, const std::function<std::string(const std::string&)>& rename);

}  // namespace flopscope::graphs
