#include "graphs/graph_diff.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <string>

namespace flopscope::graphs {

double metric_of(const NodeCost& cost, CostMetric metric) {
  switch (metric) {
    case CostMetric::kFlops:
      return cost.flops;
    case CostMetric::kTime:
      return cost.time_ns;
    case CostMetric::kBytes:
      return cost.bytes;
  }
  return 0;
}

bool metric_known(const NodeCost& cost, CostMetric metric) {
  return cost.known && (metric != CostMetric::kFlops || cost.flops_known);
}

double changed_threshold(CostMetric metric) {
  return metric == CostMetric::kTime ? 0.10 : 0.01;
}

bool moved_by_more_than(double a, double b, double relative) {
  if (a == b) return false;
  return std::fabs(b - a) > relative * std::max(std::fabs(a), std::fabs(b));
}

bool metric_changed(const NodeCost& base, const NodeCost& now, const NodeChangeRule& rule) {
  if (!metric_known(base, rule.metric) || !metric_known(now, rule.metric)) return false;
  return moved_by_more_than(metric_of(base, rule.metric), metric_of(now, rule.metric),
                            rule.relative_threshold);
}

OpGraph diff_graphs(const OpGraph& base, const OpGraph& other, const NodeChangeRule& rule) {
  OpGraph out;
  out.title = base.title + " \xE2\x86\x92 " + other.title;  // "→"
  out.is_diff = true;
  out.has_costs = base.has_costs || other.has_costs;
  out.module_types = base.module_types;
  for (const auto& [path, type] : other.module_types) out.module_types[path] = type;
  out.base_module_types = base.module_types;
  out.module_costs = other.module_costs;
  out.base_module_costs = base.module_costs;

  std::map<std::string, int> base_index;
  for (std::size_t i = 0; i < base.nodes.size(); ++i)
    base_index[base.nodes[i].identity()] = static_cast<int>(i);

  std::map<std::string, int> out_index;
  for (const auto& n : other.nodes) {
    OpNode node = n;
    auto it = base_index.find(n.identity());
    if (it == base_index.end()) {
      node.diff = DiffStatus::kNew;
    } else {
      const OpNode& b = base.nodes[static_cast<std::size_t>(it->second)];
      node.base_cost = b.cost;
      node.base_shapes = b.output_shapes;
      bool shapes_changed =
          !b.output_shapes.empty() && !n.output_shapes.empty() && b.output_shapes != n.output_shapes;
      // With costs on both sides, a node that ran in one run only took the other branch of an `if` (or
      // its loop ran zero times): a change even though both graphs hold the node.
      bool ran_in_one = base.has_costs && other.has_costs && b.cost.known != n.cost.known;
      node.diff = shapes_changed || ran_in_one || metric_changed(b.cost, n.cost, rule)
                      ? DiffStatus::kChanged
                      : DiffStatus::kUnchanged;
    }
    out_index[node.identity()] = static_cast<int>(out.nodes.size());
    out.nodes.push_back(std::move(node));
  }
  for (const auto& b : base.nodes) {
    if (out_index.contains(b.identity())) continue;
    OpNode node = b;
    node.diff = DiffStatus::kVanished;
    node.base_cost = b.cost;
    node.base_shapes = b.output_shapes;
    node.cost = {};
    out_index[node.identity()] = static_cast<int>(out.nodes.size());
    out.nodes.push_back(std::move(node));
  }

  auto key = [](const OpGraph& g, const OpEdge& e) {
    return std::make_pair(g.nodes[static_cast<std::size_t>(e.src)].identity(),
                          g.nodes[static_cast<std::size_t>(e.dst)].identity());
  };
  std::set<std::pair<std::string, std::string>> base_edges;
  for (const auto& e : base.edges) base_edges.insert(key(base, e));
  std::set<std::pair<std::string, std::string>> other_edges;
  for (const auto& e : other.edges) {
    auto k = key(other, e);
    other_edges.insert(k);
    out.edges.push_back({out_index.at(k.first), out_index.at(k.second), e.label,
                         base_edges.contains(k) ? DiffStatus::kUnchanged : DiffStatus::kNew});
  }
  for (const auto& e : base.edges) {
    auto k = key(base, e);
    if (other_edges.contains(k)) continue;
    out.edges.push_back({out_index.at(k.first), out_index.at(k.second), e.label, DiffStatus::kVanished});
  }
  return out;
}

}  // namespace flopscope::graphs
