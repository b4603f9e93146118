// A whole run in memory: what the reader returns and what in-memory sinks collect.
#pragma once

#include <vector>

#include "db/model/quality_catalogue.h"
#include "db/model/records.h"

namespace flopscope {

struct RunData {
  RunInfo info;
  std::vector<ModuleRecord> modules;
  std::vector<OpRecord> ops;
  std::vector<KernelRecord> kernels;
  std::vector<ParamRecord> params;
  std::vector<GraphNode> graph_nodes;
  std::vector<GraphEdge> graph_edges;
  std::vector<ActivationRecord> activations;
  std::vector<DiscardedOpRecord> discarded;  // dead compute (profile --activations)
  std::vector<QualityIssue> quality;
};

}  // namespace flopscope
