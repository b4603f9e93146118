// The drawn view of an OpGraph: op nodes, or whole modules collapsed into one box below a chosen depth,
// each placed in the cluster of its enclosing module.
#pragma once

#include <cstddef>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "graphs/graph_model.h"

namespace flopscope::graphs {

inline constexpr int kOpLevel = -1;        // no collapse
inline constexpr int kChosenModules = -3;  // collapsed by a set of module paths, not one depth
inline constexpr std::size_t kDefaultMaxNodes = 300;

struct ViewNode {
  bool is_module = false;   // a collapsed module standing for `members` ops
  std::string kind;         // op kind; for a module box its class name
  std::string label;        // op label from the source
  std::string module_path;  // op: its module; module box: the collapsed module
  std::string cluster;      // the enclosing cluster's module path, "" for none
  std::string identity;     // op identity, or "module:" + path
  std::string shapes;
  int members = 1;
  NodeCost cost;
  DiffStatus diff = DiffStatus::kUnchanged;
  NodeCost base_cost;
  std::string base_shapes;
};

struct ViewEdge {
  int src = 0;
  int dst = 0;
  std::string label;
  DiffStatus diff = DiffStatus::kUnchanged;
};

struct ViewGraph {
  std::string title;
  std::string note;      // OpGraph::note
  int depth = kOpLevel;  // the depth the view was collapsed to, or kChosenModules
  std::vector<ViewNode> nodes;
  std::vector<ViewEdge> edges;
  std::map<std::string, std::string> module_types;
  std::map<std::string, std::string> base_module_types;
  bool has_costs = false;
  bool is_diff = false;
  std::set<std::string> dormant_modules;  // OpGraph::dormant_modules
};

// Each module in `modules` becomes a single box holding everything below it (the outermost one wins when
// both a module and one inside it are listed); the modules above the drawn nodes become clusters.
ViewGraph collapse(const OpGraph& graph, const std::set<std::string>& modules);

// The modules at `depth` (counting path components, ModuleList indices included) that hold nodes;
// kOpLevel gives none.
std::set<std::string> modules_at_depth(const OpGraph& graph, int depth);

// collapse(graph, modules_at_depth(graph, depth)), remembering the depth for the title.
ViewGraph collapse(const OpGraph& graph, int depth);

// How many nodes collapse(graph, depth) would draw.
std::size_t count_view_nodes(const OpGraph& graph, int depth);

// kOpLevel when the op graph fits in max_nodes, else the deepest depth that fits (at least 1).
int choose_depth(const OpGraph& graph, std::size_t max_nodes = kDefaultMaxNodes);

}  // namespace flopscope::graphs
