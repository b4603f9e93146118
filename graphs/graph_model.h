// The computation graph as flopscope draws it, independent of Graphviz: op nodes with their module path,
// an identity that survives re-export (module path + op kind + ordinal, never ids), costs per iteration
// when a profiled run is known, and the diff status against another version (the engine's DiffStatus).
#pragma once

#include <map>
#include <set>
#include <string>
#include <vector>

#include "analyzer/diff/diff_status.h"
#include "db/model/records.h"

namespace flopscope::graphs {

// Per-iteration cost of a node: FLOPs and bytes of the counted ops it covers, host time (median over
// iterations) of the op call.
struct NodeCost {
  bool known = false;
  bool flops_known = false;  // some counted op is covered; false: FLOPs unknown, never shown as zero
  double flops = 0;
  double time_ns = 0;
  double bytes = 0;
  // Which clock time_ns is on where a graph draws both ("host" for ops, "device" for kernels of a trace);
  // "" on graphs of host time only.
  const char* clock = "";
};

struct OpNode {
  std::string kind;         // "aten::linear", or "input" / "output"
  std::string label;        // extra text from the source (input names); may be empty
  std::string module_path;  // "" for the root module
  int ordinal = 0;          // among nodes of the same kind in the same module, in graph order
  std::string output_shapes;
  NodeCost cost;
  // Diff overlays only: the status against the base version and the base's cost and shapes.
  DiffStatus diff = DiffStatus::kUnchanged;
  NodeCost base_cost;
  std::string base_shapes;

  // "layers.0.attn|aten::linear#2": stable across exports of the same model code.
  std::string identity() const;
};

struct OpEdge {
  int src = 0;  // node indices
  int dst = 0;
  std::string label;  // tensor shape, when known
  DiffStatus diff = DiffStatus::kUnchanged;
};

struct OpGraph {
  std::string title;  // what the graph shows, e.g. the model file name
  std::string note;   // how the graph was made when it is not the model's own (a trace's), or ""
  std::vector<OpNode> nodes;
  std::vector<OpEdge> edges;
  std::map<std::string, std::string> module_types;       // module path -> short class name
  std::map<std::string, std::string> base_module_types;  // diff graphs: the base's classes
  // Inclusive per-iteration cost of each module from the run's summary (the numbers the report shows);
  // collapsed module boxes use them. Diff graphs keep the base's in base_module_costs.
  std::map<std::string, NodeCost> module_costs;
  std::map<std::string, NodeCost> base_module_costs;
  bool has_costs = false;
  bool is_diff = false;
  // Diff graphs: modules the diff engine calls DORMANT (weights zeroed or result discarded; their ops still
  // run, so the op diff alone shows them unchanged). Set by the caller from analyzer/diff's verdicts.
  std::set<std::string> dormant_modules;
};

// Builds the graph from stored rows (run database or extraction). Edges naming unknown node ids are
// dropped; ordinals are assigned in node order.
OpGraph make_op_graph(const std::vector<GraphNode>& nodes, const std::vector<GraphEdge>& edges,
                      const std::vector<ModuleRecord>& modules);

// Number of components of a dotted module path: "" -> 0, "layers.0.attn" -> 3.
int module_depth(const std::string& path);
// The first `depth` components of a dotted path.
std::string module_prefix(const std::string& path, int depth);
// The parent path: "layers.0.attn" -> "layers.0", "embed" -> "".
std::string parent_module(const std::string& path);

}  // namespace flopscope::graphs
