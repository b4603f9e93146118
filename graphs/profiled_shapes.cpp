#include <algorithm>
#include <cctype>
#include <limits>
#include <unordered_map>

#include "db/model/dtype.h"
#include "graphs/extract.h"
#include "graphs/run_costs.h"

namespace flopscope::graphs {

std::string shape_text(const OpArg& arg) {
  if (!arg.is_tensor) return "";
  // Capture paths may hand over c10 scalar-type names ("Float"); try the lower-case spelling too.
  std::string dtype = normalize_dtype(arg.dtype);
  if (dtype == arg.dtype) {
    std::string lower = arg.dtype;
    for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    if (std::string n = normalize_dtype(lower); n != lower || dtype_size(n) > 0) dtype = n;
  }
  std::string text = dtype + "[";
  for (std::size_t i = 0; i < arg.shape.size(); ++i) {
    if (i) text += ",";
    text += std::to_string(arg.shape[i]);
  }
  return text + "]";
}

void apply_profiled_shapes(std::vector<GraphNode>& nodes, std::vector<GraphEdge>& edges,
                           const std::vector<int>& edge_arg, const std::vector<int>& input_count,
                           const RunData& run) {
  if (run.ops.empty()) return;
  int first = std::numeric_limits<int>::max();
  for (const auto& op : run.ops) first = std::min(first, op.iteration);
  auto match = match_nodes_to_ops(nodes, run, first);
  std::unordered_map<Id, std::size_t> by_id;
  for (std::size_t i = 0; i < nodes.size(); ++i) by_id[nodes[i].id] = i;
  for (std::size_t k = 0; k < edges.size() && k < edge_arg.size(); ++k) {
    auto dst = by_id.find(edges[k].dst);
    auto src = by_id.find(edges[k].src);
    if (dst == by_id.end() || src == by_id.end() || match[dst->second] < 0 || edge_arg[k] < 0) continue;
    const OpRecord& call = run.ops[static_cast<std::size_t>(match[dst->second])];
    auto arg = static_cast<std::size_t>(edge_arg[k]);
    // Some recorders hand over extra leading stack values; the op's own arguments are the last ones.
    auto expected = dst->second < input_count.size() ? static_cast<std::size_t>(input_count[dst->second]) : 0;
    if (expected > 0 && call.args.size() > expected) arg += call.args.size() - expected;
    if (arg >= call.args.size()) continue;
    std::string text = shape_text(call.args[arg]);
    if (text.empty()) continue;
    edges[k].label = text;
    if (nodes[src->second].output_shapes.empty()) nodes[src->second].output_shapes = text;
  }
}

void apply_output_shapes(std::vector<GraphNode>& nodes, std::vector<GraphEdge>& edges,
                         const std::vector<OpArg>& outputs, const RunData& run) {
  if (outputs.empty() || run.ops.empty()) return;
  std::unordered_map<Id, std::size_t> by_id;
  for (std::size_t i = 0; i < nodes.size(); ++i) by_id[nodes[i].id] = i;
  int first = std::numeric_limits<int>::max();
  for (const auto& op : run.ops) first = std::min(first, op.iteration);
  auto ran = match_nodes_to_ops(nodes, run, first);
  std::vector<GraphEdge*> into_output;
  for (auto& e : edges) {
    auto dst = by_id.find(e.dst);
    if (dst != by_id.end() && nodes[dst->second].kind == "output") into_output.push_back(&e);
  }
  auto label = [&](GraphEdge& e, const OpArg& out) {
    auto src = by_id.find(e.src);
    std::string text = shape_text(out);
    if (src == by_id.end() || ran[src->second] < 0 || text.empty() || !e.label.empty()) return;
    e.label = text;
    if (nodes[src->second].output_shapes.empty()) nodes[src->second].output_shapes = text;
  };
  if (outputs.size() == 1) {
    // One returned tensor: every edge into the output carries it (an If's branches, a loop's result); only
    // the producers that ran are labelled.
    for (GraphEdge* e : into_output) label(*e, outputs[0]);
  } else if (into_output.size() == outputs.size()) {
    for (std::size_t k = 0; k < outputs.size(); ++k) label(*into_output[k], outputs[k]);
  }
}

}  // namespace flopscope::graphs
