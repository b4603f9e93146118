// Joining graph nodes to a profiled run. A node and an op call match when they have the same identity:
// module path, op kind and ordinal among calls of that kind in that module within one iteration. Only
// the outermost call of a graph op kind counts (aten::linear, not the aten::addmm it dispatches to).
#pragma once

#include <cstddef>
#include <vector>

#include "analyzer/summary.h"
#include "db/model/run_data.h"
#include "graphs/graph_model.h"

namespace flopscope::graphs {

// For each node, the index into run.ops of the matching call in `iteration`, or -1.
std::vector<std::ptrdiff_t> match_nodes_to_ops(const std::vector<GraphNode>& nodes, const RunData& run,
                                               int iteration);

struct CostMatch {
  std::size_t matched = 0;    // nodes with a matching call
  std::size_t unmatched = 0;  // op nodes (not input/output) without one
};

// Sets each node's cost per iteration from its matching calls: the median duration, and the mean FLOPs and
// bytes of the counted ops in its subtree. Sets graph.has_costs when anything matched.
CostMatch attach_run_costs(OpGraph& graph, const RunData& run);

// Fills graph.module_costs from the run's summary: inclusive FLOPs, bytes and median (P50) host time per
// iteration of every module, the numbers the report prints.
void attach_module_costs(OpGraph& graph, const RunSummary& summary);

}  // namespace flopscope::graphs
