#include "graphs/run_costs.h"

#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <unordered_map>

namespace flopscope::graphs {
namespace {

using Key = std::pair<std::string, std::string>;  // module path, kind

// The run's candidate calls: ops of a graph kind with no ancestor of a graph kind, grouped by iteration
// and identity, in sequence order.
struct CallIndex {
  std::map<int, std::map<Key, std::vector<std::size_t>>> by_iteration;
  std::unordered_map<Id, std::size_t> op_index;
  std::vector<bool> candidate;
};

CallIndex index_calls(const RunData& run, const std::set<std::string>& kinds) {
  CallIndex idx;
  std::unordered_map<Id, std::string> module_path;
  for (const auto& m : run.modules) module_path[m.id] = m.path;
  for (std::size_t i = 0; i < run.ops.size(); ++i) idx.op_index[run.ops[i].id] = i;
  idx.candidate.assign(run.ops.size(), false);
  std::vector<std::size_t> order(run.ops.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return run.ops[a].sequence < run.ops[b].sequence; });
  for (std::size_t i : order) {
    const OpRecord& op = run.ops[i];
    if (!kinds.contains(op.name)) continue;
    bool nested = false;
    // A parent chain longer than the op count is a cycle (a crafted or damaged run): stop there.
    std::size_t steps = 0;
    for (Id p = op.parent_op_id; p != kNoId && steps++ < run.ops.size();) {
      auto it = idx.op_index.find(p);
      if (it == idx.op_index.end()) break;
      if (kinds.contains(run.ops[it->second].name)) {
        nested = true;
        break;
      }
      p = run.ops[it->second].parent_op_id;
    }
    if (nested) continue;
    idx.candidate[i] = true;
    auto mp = module_path.find(op.module_id);
    idx.by_iteration[op.iteration][{mp == module_path.end() ? "" : mp->second, op.name}].push_back(i);
  }
  return idx;
}

template <typename Node, typename KeyOf>
std::vector<std::ptrdiff_t> match_in(const std::vector<Node>& nodes, KeyOf key_of,
                                     const std::map<Key, std::vector<std::size_t>>& calls) {
  std::vector<std::ptrdiff_t> match(nodes.size(), -1);
  std::map<Key, std::size_t> seen;
  for (std::size_t i = 0; i < nodes.size(); ++i) {
    Key key = key_of(nodes[i]);
    std::size_t ordinal = seen[key]++;
    auto it = calls.find(key);
    if (it != calls.end() && ordinal < it->second.size())
      match[i] = static_cast<std::ptrdiff_t>(it->second[ordinal]);
  }
  return match;
}

}  // namespace

std::vector<std::ptrdiff_t> match_nodes_to_ops(const std::vector<GraphNode>& nodes, const RunData& run,
                                               int iteration) {
  std::set<std::string> kinds;
  for (const auto& n : nodes) kinds.insert(n.kind);
  CallIndex idx = index_calls(run, kinds);
  static const std::map<Key, std::vector<std::size_t>> kEmpty;
  auto it = idx.by_iteration.find(iteration);
  return match_in(
      nodes,
      [](const GraphNode& n) {
        return Key{n.module_path, n.kind};
      },
      it == idx.by_iteration.end() ? kEmpty : it->second);
}

CostMatch attach_run_costs(OpGraph& graph, const RunData& run) {
  std::set<std::string> kinds;
  for (const auto& n : graph.nodes) kinds.insert(n.kind);
  CallIndex idx = index_calls(run, kinds);

  // FLOPs and bytes of counted ops roll up to their nearest candidate ancestor (or themselves).
  std::vector<double> flops(run.ops.size(), 0), bytes(run.ops.size(), 0);
  std::vector<bool> counted(run.ops.size(), false);
  for (std::size_t i = 0; i < run.ops.size(); ++i) {
    const OpRecord& op = run.ops[i];
    if (!counts_toward_totals(op)) continue;
    std::size_t at = i;
    bool found = idx.candidate[at];
    for (std::size_t steps = 0; !found && steps < run.ops.size(); ++steps) {  // bounded: parents may cycle
      auto it = idx.op_index.find(run.ops[at].parent_op_id);
      if (run.ops[at].parent_op_id == kNoId || it == idx.op_index.end()) break;
      at = it->second;
      found = idx.candidate[at];
    }
    if (!found) continue;
    counted[at] = true;
    flops[at] += op.flops;
    bytes[at] += op.bytes_read + op.bytes_written;
  }

  CostMatch result;
  const double iterations = idx.by_iteration.empty() ? 1.0 : static_cast<double>(idx.by_iteration.size());
  std::vector<NodeCost> sum(graph.nodes.size());
  std::vector<std::vector<double>> times(graph.nodes.size());
  std::map<Key, std::vector<std::size_t>> nodes_of;  // identity without ordinal -> nodes, in graph order
  for (std::size_t n = 0; n < graph.nodes.size(); ++n)
    nodes_of[{graph.nodes[n].module_path, graph.nodes[n].kind}].push_back(n);
  for (const auto& [iteration, calls] : idx.by_iteration) {
    auto match = match_in(
        graph.nodes,
        [](const OpNode& n) {
          return Key{n.module_path, n.kind};
        },
        calls);
    std::vector<double> time(graph.nodes.size(), 0.0);
    auto add = [&](std::size_t n, std::size_t op) {
      sum[n].known = true;
      sum[n].flops_known = sum[n].flops_known || counted[op];
      sum[n].flops += flops[op];
      sum[n].bytes += bytes[op];
      time[n] += static_cast<double>(run.ops[op].duration_ns);
    };
    for (std::size_t n = 0; n < match.size(); ++n) {
      if (match[n] >= 0) add(n, static_cast<std::size_t>(match[n]));
    }
    // More calls than nodes: a loop body's nodes run once per trip. The extra calls go to the nodes in turn
    // when they divide evenly (always for one node), so a node shows the cost of all its trips.
    for (const auto& [key, ops] : calls) {
      auto nodes = nodes_of.find(key);
      if (nodes == nodes_of.end()) continue;
      const std::size_t k = nodes->second.size();
      if (ops.size() <= k || ops.size() % k != 0) continue;
      for (std::size_t j = k; j < ops.size(); ++j) add(nodes->second[j % k], ops[j]);
    }
    for (std::size_t n = 0; n < match.size(); ++n) {
      if (match[n] >= 0) times[n].push_back(time[n]);
    }
  }
  for (std::size_t n = 0; n < graph.nodes.size(); ++n) {
    OpNode& node = graph.nodes[n];
    if (sum[n].known) {
      // Median time, as the report prints: one preempted iteration must not colour a node.
      node.cost = {true,
                   sum[n].flops_known,
                   sum[n].flops / iterations,
                   latency_stats(times[n]).p50,
                   sum[n].bytes / iterations,
                   ""};
      ++result.matched;
    } else if (node.kind != "input" && node.kind != "output") {
      ++result.unmatched;
    }
  }
  graph.has_costs = result.matched > 0;
  return result;
}

void attach_module_costs(OpGraph& graph, const RunSummary& summary) {
  for (const auto& m : summary.modules) {
    graph.module_costs[m.path] = {
        true, m.inclusive.flops > 0, m.inclusive.flops, m.inclusive_time.p50, m.inclusive.bytes(), ""};
  }
}

}  // namespace flopscope::graphs
