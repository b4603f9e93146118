// Synthetic op graphs for tests and benchmarks: a chain of blocks with nested modules and a few ops each.
#pragma once

#include <string>

#include "graphs/graph_model.h"

namespace flopscope::graphs::testing {

// blocks x subs x ops_per_sub ops in modules "blocks.<b>.sub<s>", chained in order, plus one input and
// one output node, and a residual edge from each sub's first op to the next sub's first op. FLOPs grow
// with the op index so the heat scale has a range.
inline OpGraph synthetic_graph(int blocks, int subs, int ops_per_sub) {
  OpGraph g;
  g.title = "synthetic";
  g.module_types["blocks"] = "ModuleList";
  OpNode input;
  input.kind = "input";
  g.nodes.push_back(input);
  for (int b = 0; b < blocks; ++b) {
    std::string block = "blocks." + std::to_string(b);
    g.module_types[block] = "Block";
    for (int s = 0; s < subs; ++s) {
      std::string sub = block + ".sub" + std::to_string(s);
      g.module_types[sub] = "Sub";
      for (int o = 0; o < ops_per_sub; ++o) {
        OpNode n;
        n.kind = o % 2 ? "aten::linear" : "aten::add";
        n.module_path = sub;
        n.ordinal = o / 2;
        n.cost = {true, true, 1000.0 * (1 + o), 100.0, 10.0};
        g.nodes.push_back(n);
      }
    }
  }
  OpNode output;
  output.kind = "output";
  g.nodes.push_back(output);
  for (std::size_t i = 1; i < g.nodes.size(); ++i) {
    g.edges.push_back({static_cast<int>(i - 1), static_cast<int>(i), "", DiffStatus::kUnchanged});
  }
  if (ops_per_sub > 1) {
    for (int first = 1; first + ops_per_sub < static_cast<int>(g.nodes.size()) - 1; first += ops_per_sub) {
      g.edges.push_back({first, first + ops_per_sub, "", DiffStatus::kUnchanged});
    }
  }
  g.has_costs = true;
  return g;
}

}  // namespace flopscope::graphs::testing
