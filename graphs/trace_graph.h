// The graph of a run that recorded no computation graph: an imported trace (Kineto, Nsight Systems, Nsight
// Compute) or a CUPTI capture. A trace records what ran, not which tensor fed which op, so the graph shows
// one iteration's top-level ops in the order they ran on each thread, each in the frame of its module, with
// the kernels each launched; costs are per iteration as on profiled graphs (op time: host, kernel time:
// device). Bounded: past max_nodes, the ops with the most host time stay and one node counts the rest.
#pragma once

#include <cstddef>

#include "analyzer/summary.h"
#include "db/model/run_data.h"
#include "graphs/collapse.h"
#include "graphs/graph_model.h"

namespace flopscope::graphs {

// Runs of this kind carry no graph_node rows and no model to extract one from.
bool records_no_graph(SourceKind kind);

// The drawing of `run` described above; empty when the run has no ops. The "N more" node (kind kMoreKind)
// sits in the root frame with the host time and FLOPs of the ops it stands for.
inline constexpr const char* kMoreKind = "more";
inline constexpr const char* kKernelKind = "kernel";
OpGraph trace_op_graph(const RunData& run, const RunSummary& summary,
                       std::size_t max_nodes = kDefaultMaxNodes);

}  // namespace flopscope::graphs
