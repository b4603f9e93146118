#include "graphs/collapse.h"

#include <algorithm>
#include <set>
#include <string_view>

namespace flopscope::graphs {
namespace {

bool collapsed_at(const OpNode& n, int depth) {
  return depth != kOpLevel && module_depth(n.module_path) >= depth;
}

// The outermost module of `modules` that holds `path` (itself or an ancestor), or null.
const std::string* collapsed_ancestor(const std::string& path, const std::set<std::string>& modules) {
  if (modules.empty() || path.empty()) return nullptr;
  for (int d = 1, depth = module_depth(path); d <= depth; ++d) {
    auto it = modules.find(module_prefix(path, d));
    if (it != modules.end()) return &*it;
  }
  return nullptr;
}

void add_cost(NodeCost& into, const NodeCost& c) {
  if (!c.known) return;
  into.known = true;
  into.flops_known = into.flops_known || c.flops_known;
  into.flops += c.flops;
  // A box's time is host time: a trace's kernel nodes (device time) add their work, not their time.
  if (std::string_view(c.clock) != "device") into.time_ns += c.time_ns;
  into.bytes += c.bytes;
}

// A box is removed or added only when all its members are; any other mix, or a member that changed, makes
// it changed. Cost deltas are judged later from cost vs base_cost.
DiffStatus merge_diff(DiffStatus box, DiffStatus member, bool first) {
  if (first) return member;
  return box == member && box != DiffStatus::kChanged ? box : DiffStatus::kChanged;
}

}  // namespace

std::size_t count_view_nodes(const OpGraph& graph, int depth) {
  std::size_t ops = 0;
  std::set<std::string> boxes;
  for (const auto& n : graph.nodes) {
    if (collapsed_at(n, depth)) {
      boxes.insert(module_prefix(n.module_path, depth));
    } else {
      ++ops;
    }
  }
  return ops + boxes.size();
}

int choose_depth(const OpGraph& graph, std::size_t max_nodes) {
  if (graph.nodes.size() <= max_nodes) return kOpLevel;
  int deepest = 0;
  for (const auto& n : graph.nodes) deepest = std::max(deepest, module_depth(n.module_path));
  for (int d = deepest; d > 1; --d) {
    if (count_view_nodes(graph, d) <= max_nodes) return d;
  }
  return 1;
}

std::set<std::string> modules_at_depth(const OpGraph& graph, int depth) {
  std::set<std::string> modules;
  if (depth == kOpLevel) return modules;
  for (const auto& n : graph.nodes) {
    if (collapsed_at(n, depth)) modules.insert(module_prefix(n.module_path, depth));
  }
  return modules;
}

ViewGraph collapse(const OpGraph& graph, int depth) {
  ViewGraph view = collapse(graph, modules_at_depth(graph, depth));
  view.depth = depth;
  return view;
}

ViewGraph collapse(const OpGraph& graph, const std::set<std::string>& modules) {
  ViewGraph view;
  view.title = graph.title;
  view.note = graph.note;
  view.depth = modules.empty() ? kOpLevel : kChosenModules;
  view.module_types = graph.module_types;
  view.base_module_types = graph.base_module_types;
  view.has_costs = graph.has_costs;
  view.is_diff = graph.is_diff;
  view.dormant_modules = graph.dormant_modules;

  std::vector<int> node_of(graph.nodes.size(), -1);
  std::map<std::string, int> box_of;
  for (std::size_t i = 0; i < graph.nodes.size(); ++i) {
    const OpNode& n = graph.nodes[i];
    const std::string* module = collapsed_ancestor(n.module_path, modules);
    if (!module) {
      ViewNode v;
      v.kind = n.kind;
      v.label = n.label;
      v.module_path = n.module_path;
      v.cluster = n.module_path;
      v.identity = n.identity();
      v.shapes = n.output_shapes;
      v.cost = n.cost;
      v.diff = n.diff;
      v.base_cost = n.base_cost;
      v.base_shapes = n.base_shapes;
      node_of[i] = static_cast<int>(view.nodes.size());
      view.nodes.push_back(std::move(v));
      continue;
    }
    const std::string& path = *module;
    auto [it, inserted] = box_of.try_emplace(path, static_cast<int>(view.nodes.size()));
    if (inserted) {
      ViewNode v;
      v.is_module = true;
      auto type = graph.module_types.find(path);
      v.kind = type == graph.module_types.end() ? "" : type->second;
      v.module_path = path;
      v.cluster = parent_module(path);
      v.identity = "module:" + path;
      v.members = 0;
      view.nodes.push_back(std::move(v));
    }
    ViewNode& box = view.nodes[static_cast<std::size_t>(it->second)];
    box.diff = merge_diff(box.diff, n.diff, box.members == 0);
    ++box.members;
    // Removed ops cost nothing in the new version; added ones cost nothing in the base.
    if (n.diff != DiffStatus::kVanished) add_cost(box.cost, n.cost);
    if (n.diff != DiffStatus::kNew) add_cost(box.base_cost, graph.is_diff ? n.base_cost : n.cost);
    node_of[i] = it->second;
  }
  // Boxes take the summary's inclusive module cost when the run has one: it also covers calls that have
  // no node of their own, and it is the number the report prints.
  for (auto& box : view.nodes) {
    if (!box.is_module) continue;
    auto now = graph.module_costs.find(box.module_path);
    if (now != graph.module_costs.end() && box.diff != DiffStatus::kVanished) box.cost = now->second;
    const auto& base_costs = graph.is_diff ? graph.base_module_costs : graph.module_costs;
    auto base = base_costs.find(box.module_path);
    if (base != base_costs.end() && box.diff != DiffStatus::kNew) box.base_cost = base->second;
  }

  // One edge per pair of drawn nodes; an edge stays removed/added only if every edge it stands for is.
  std::map<std::pair<int, int>, std::size_t> edge_of;
  for (const auto& e : graph.edges) {
    int s = node_of[static_cast<std::size_t>(e.src)];
    int d = node_of[static_cast<std::size_t>(e.dst)];
    if (s == d) continue;
    auto [it, inserted] = edge_of.try_emplace({s, d}, view.edges.size());
    if (inserted) {
      view.edges.push_back({s, d, e.label, e.diff});
      continue;
    }
    ViewEdge& edge = view.edges[it->second];
    if (edge.label != e.label) edge.label.clear();
    if (edge.diff != e.diff) edge.diff = DiffStatus::kUnchanged;
  }
  return view;
}

}  // namespace flopscope::graphs
