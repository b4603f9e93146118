#include "graphs/trace_graph.h"

#include <algorithm>
#include <map>
#include <numeric>
#include <unordered_map>

#include "analyzer/format.h"
#include "analyzer/latency.h"
#include "graphs/run_costs.h"

namespace flopscope::graphs {
namespace {

// The top-level ops of the drawn iteration and the kernels each launched (directly or through ops it
// called), in the order they ran.
struct Drawn {
  int iteration = 0;
  int iterations = 0;                               // iterations with top-level ops
  std::vector<std::size_t> ops;                     // run.ops indices, by sequence
  std::vector<std::vector<std::size_t>> kernels;    // per drawn op: run.kernels indices, by start
  std::vector<std::size_t> top_of;                  // per run op: its top-level ancestor (itself at the top)
  std::unordered_map<Id, std::string> module_path;  // module id -> path
  // Per drawn kernel: its ordinal among the iteration's kernels of the same name launched from the same
  // module, by start (how kernels are matched across iterations, attach_kernel_costs).
  std::unordered_map<std::size_t, std::size_t> kernel_ordinal;
  std::size_t kernels_left_out = 0;  // beyond kMaxKernelsPerOp
};

// A torch.compile region launches a thousand kernels from one op: each op shows its longest few.
constexpr std::size_t kMaxKernelsPerOp = 8;

// Run op index by op id.
std::unordered_map<Id, std::size_t> op_index_of(const RunData& run) {
  std::unordered_map<Id, std::size_t> index;
  for (std::size_t i = 0; i < run.ops.size(); ++i) index[run.ops[i].id] = i;
  return index;
}

std::vector<std::size_t> top_level_ancestors(const RunData& run) {
  const auto index = op_index_of(run);
  std::vector<std::size_t> top(run.ops.size());
  for (std::size_t i = 0; i < run.ops.size(); ++i) {
    std::size_t at = i;
    // Bounded: a damaged run's parent chain may cycle.
    for (std::size_t steps = 0; steps < run.ops.size(); ++steps) {
      auto parent = index.find(run.ops[at].parent_op_id);
      if (run.ops[at].parent_op_id == kNoId || parent == index.end()) break;
      at = parent->second;
    }
    top[i] = at;
  }
  return top;
}

// The iteration with the most top-level ops (the earliest of equals): a complete one, not a cut-off end.
Drawn pick_iteration(const RunData& run) {
  Drawn d;
  d.top_of = top_level_ancestors(run);
  for (const auto& m : run.modules) d.module_path[m.id] = m.path;
  std::map<int, std::size_t> count;
  for (std::size_t i = 0; i < run.ops.size(); ++i)
    if (d.top_of[i] == i) ++count[run.ops[i].iteration];
  std::size_t best = 0;
  for (const auto& [iteration, n] : count) {
    if (n <= best) continue;
    best = n;
    d.iteration = iteration;
  }
  d.iterations = static_cast<int>(count.size());
  for (std::size_t i = 0; i < run.ops.size(); ++i)
    if (d.top_of[i] == i && run.ops[i].iteration == d.iteration) d.ops.push_back(i);
  std::stable_sort(d.ops.begin(), d.ops.end(),
                   [&](std::size_t a, std::size_t b) { return run.ops[a].sequence < run.ops[b].sequence; });
  return d;
}

std::string module_of(const Drawn& d, Id module_id) {
  auto it = d.module_path.find(module_id);
  return it == d.module_path.end() ? "" : it->second;
}

void attach_kernels(const RunData& run, Drawn& d) {
  const auto index = op_index_of(run);
  std::unordered_map<std::size_t, std::size_t> slot;  // top-level run op -> drawn op
  for (std::size_t s = 0; s < d.ops.size(); ++s) slot[d.ops[s]] = s;
  d.kernels.assign(d.ops.size(), {});
  for (std::size_t k = 0; k < run.kernels.size(); ++k) {
    auto op = index.find(run.kernels[k].op_id);
    if (op == index.end()) continue;
    auto s = slot.find(d.top_of[op->second]);
    if (s != slot.end()) d.kernels[s->second].push_back(k);
  }
  auto by_start = [&](std::size_t a, std::size_t b) {
    return run.kernels[a].start_ns < run.kernels[b].start_ns;
  };
  std::map<std::pair<std::string, std::string>, std::vector<std::size_t>> by_key;
  for (std::size_t s = 0; s < d.ops.size(); ++s)
    for (std::size_t k : d.kernels[s])
      by_key[{module_of(d, run.ops[d.ops[s]].module_id), run.kernels[k].name}].push_back(k);
  for (auto& [key, ks] : by_key) {
    std::stable_sort(ks.begin(), ks.end(), by_start);
    for (std::size_t i = 0; i < ks.size(); ++i) d.kernel_ordinal[ks[i]] = i;
  }
  for (auto& ks : d.kernels) {
    if (ks.size() > kMaxKernelsPerOp) {
      std::stable_sort(ks.begin(), ks.end(), [&](std::size_t a, std::size_t b) {
        return run.kernels[a].duration_ns > run.kernels[b].duration_ns;
      });
      d.kernels_left_out += ks.size() - kMaxKernelsPerOp;
      ks.resize(kMaxKernelsPerOp);
    }
    std::stable_sort(ks.begin(), ks.end(), by_start);
  }
}

using KernelKey = std::pair<std::string, std::string>;  // module path (of the launching op), kernel name

double counted_flops(const KernelRecord& k) {
  return k.flops_fp64 + k.flops_fp32 + k.flops_fp16;
}

// Kernel nodes' costs per iteration, matched across iterations as ops are: the same launching module, the
// same kernel name and the same ordinal among those. Device time (median), counter FLOPs and DRAM bytes
// (mean over the iterations with kernels).
void attach_kernel_costs(OpGraph& graph, const std::vector<std::size_t>& kernel_of, const RunData& run,
                         const Drawn& d) {
  const auto index = op_index_of(run);
  std::map<int, std::map<KernelKey, std::vector<std::size_t>>> by_iteration;
  for (std::size_t k = 0; k < run.kernels.size(); ++k) {
    auto op = index.find(run.kernels[k].op_id);
    if (op == index.end()) continue;
    const OpRecord& top = run.ops[d.top_of[op->second]];
    by_iteration[top.iteration][{module_of(d, top.module_id), run.kernels[k].name}].push_back(k);
  }
  for (auto& [iteration, groups] : by_iteration)
    for (auto& [key, ks] : groups)
      std::stable_sort(ks.begin(), ks.end(), [&](std::size_t a, std::size_t b) {
        return run.kernels[a].start_ns < run.kernels[b].start_ns;
      });
  const double iterations = std::max<double>(1.0, static_cast<double>(by_iteration.size()));
  for (std::size_t i = 0; i < graph.nodes.size(); ++i) {
    OpNode& node = graph.nodes[i];
    if (node.kind != kKernelKind) continue;
    const KernelKey key{node.module_path, node.label};
    const std::size_t ordinal = d.kernel_ordinal.at(kernel_of[i]);
    std::vector<double> times;
    NodeCost cost;
    for (const auto& [iteration, groups] : by_iteration) {
      auto g = groups.find(key);
      if (g == groups.end() || ordinal >= g->second.size()) continue;
      const KernelRecord& k = run.kernels[g->second[ordinal]];
      times.push_back(static_cast<double>(k.duration_ns));
      cost.flops_known = cost.flops_known || (k.has_counters && counted_flops(k) > 0);
      cost.flops += k.has_counters ? counted_flops(k) / iterations : 0;
      cost.bytes += measured_dram_bytes(k) / iterations;
    }
    if (times.empty()) continue;
    cost.known = true;
    cost.time_ns = latency_stats(times).p50;
    cost.clock = "device";
    node.cost = cost;
  }
}

// Nodes in drawing order: each op, then its kernels. `first_node[s]` is drawn op s's node.
struct Nodes {
  std::vector<GraphNode> nodes;
  std::vector<std::size_t> first_node;
  std::vector<std::int64_t> thread;    // per node: the op's thread (kernels: their op's)
  std::vector<std::size_t> kernel_of;  // per node: its run.kernels index (ops: unused)
};

Nodes make_nodes(const RunData& run, const Drawn& d) {
  Nodes out;
  for (std::size_t s = 0; s < d.ops.size(); ++s) {
    const OpRecord& op = run.ops[d.ops[s]];
    out.first_node.push_back(out.nodes.size());
    GraphNode n;
    n.id = static_cast<Id>(out.nodes.size());
    n.kind = op.name;
    n.module_id = op.module_id;
    n.module_path = module_of(d, op.module_id);
    out.nodes.push_back(n);
    out.thread.push_back(op.thread);
    out.kernel_of.push_back(0);
    for (std::size_t k : d.kernels[s]) {
      GraphNode kn = n;
      kn.id = static_cast<Id>(out.nodes.size());
      kn.kind = kKernelKind;
      kn.label = run.kernels[k].name;
      out.nodes.push_back(kn);
      out.thread.push_back(op.thread);
      out.kernel_of.push_back(k);
    }
  }
  return out;
}

// Edges: each drawn op to the next drawn op of its thread (the order they ran), each op to
// its kernels.
std::vector<OpEdge> order_edges(const OpGraph& graph, const std::vector<std::int64_t>& thread) {
  std::vector<OpEdge> edges;
  std::map<std::int64_t, int> last_op;
  int op = -1;
  for (std::size_t i = 0; i < graph.nodes.size(); ++i) {
    const int at = static_cast<int>(i);
    if (graph.nodes[i].kind == kMoreKind) continue;  // stands for ops from anywhere in the iteration
    if (graph.nodes[i].kind == kKernelKind) {
      if (op >= 0) edges.push_back({op, at, "launch", DiffStatus::kUnchanged});
      continue;
    }
    op = at;
    auto prev = last_op.find(thread[i]);
    if (prev != last_op.end()) edges.push_back({prev->second, at, "then", DiffStatus::kUnchanged});
    last_op[thread[i]] = at;
  }
  return edges;
}

// Which nodes stay within max_nodes (one slot kept for the "more" node): ops by host time, most first, each
// with its kernels, until the next does not fit.
std::vector<bool> keep_top(const OpGraph& graph, const std::vector<std::size_t>& first_node,
                           std::size_t max_nodes) {
  std::vector<bool> kept(graph.nodes.size(), true);
  if (graph.nodes.size() <= max_nodes) return kept;
  std::vector<std::size_t> order(first_node.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    return graph.nodes[first_node[a]].cost.time_ns > graph.nodes[first_node[b]].cost.time_ns;
  });
  auto end_of = [&](std::size_t s) {
    return s + 1 < first_node.size() ? first_node[s + 1] : graph.nodes.size();
  };
  std::fill(kept.begin(), kept.end(), false);
  std::size_t used = 0;
  const std::size_t budget = max_nodes > 1 ? max_nodes - 1 : 0;
  for (std::size_t s : order) {
    const std::size_t size = end_of(s) - first_node[s];
    if (used + size > budget) break;
    used += size;
    for (std::size_t i = first_node[s]; i < end_of(s); ++i) kept[i] = true;
  }
  return kept;
}

// Drops the nodes not kept, adding one node in the root frame for them: how many ops and kernels, and the
// ops' host time, FLOPs and bytes per iteration.
std::size_t fold_rest(OpGraph& graph, std::vector<std::int64_t>& thread, const std::vector<bool>& kept) {
  if (std::all_of(kept.begin(), kept.end(), [](bool k) { return k; })) return 0;
  std::vector<OpNode> nodes;
  std::vector<std::int64_t> threads;
  OpNode more;
  more.kind = kMoreKind;
  more.cost.clock = "host";
  std::size_t ops = 0, kernels = 0;
  for (std::size_t i = 0; i < graph.nodes.size(); ++i) {
    if (kept[i]) {
      nodes.push_back(std::move(graph.nodes[i]));
      threads.push_back(thread[i]);
      continue;
    }
    const OpNode& n = graph.nodes[i];
    if (n.kind == kKernelKind) {
      ++kernels;
      continue;
    }
    ++ops;
    if (!n.cost.known) continue;
    more.cost.known = true;
    more.cost.flops_known = more.cost.flops_known || n.cost.flops_known;
    more.cost.flops += n.cost.flops;
    more.cost.time_ns += n.cost.time_ns;
    more.cost.bytes += n.cost.bytes;
  }
  more.label = count_of(static_cast<long long>(ops), "more op") + " and " +
               count_of(static_cast<long long>(kernels), "kernel") + " (less host time)";
  nodes.push_back(std::move(more));
  threads.push_back(0);
  graph.nodes = std::move(nodes);
  thread = std::move(threads);
  return ops;
}

}  // namespace

bool records_no_graph(SourceKind kind) {
  return kind == SourceKind::kKineto || kind == SourceKind::kNsys || kind == SourceKind::kNcu ||
         kind == SourceKind::kCupti;
}

OpGraph trace_op_graph(const RunData& run, const RunSummary& summary, std::size_t max_nodes) {
  if (run.ops.empty()) return {};
  Drawn drawn = pick_iteration(run);
  attach_kernels(run, drawn);
  Nodes made = make_nodes(run, drawn);
  OpGraph graph = make_op_graph(made.nodes, {}, run.modules);
  attach_run_costs(graph, run);
  for (auto& n : graph.nodes)
    if (n.kind != kKernelKind) n.cost.clock = "host";
  attach_kernel_costs(graph, made.kernel_of, run, drawn);
  attach_module_costs(graph, summary);

  const std::size_t drawn_ops = drawn.ops.size();
  std::vector<bool> kept = keep_top(graph, made.first_node, max_nodes);
  const std::size_t folded = fold_rest(graph, made.thread, kept);
  graph.edges = order_edges(graph, made.thread);
  std::string note = "from a trace, which records no data flow: the " +
                     count_of(static_cast<long long>(drawn_ops), "top-level op") + " of iteration " +
                     std::to_string(drawn.iteration) +
                     (drawn.iterations > 1 ? " (of " + std::to_string(drawn.iterations) + ")" : "") +
                     " in the order they ran, each with the kernels it launched; op time: host, kernel time: "
                     "device, per iteration";
  if (drawn.kernels_left_out > 0)
    note += "\nat most " + std::to_string(kMaxKernelsPerOp) + " kernels an op (its longest), " +
            count_of(static_cast<long long>(drawn.kernels_left_out), "kernel") + " not drawn";
  if (folded > 0)
    note += "\nthe " + count_of(static_cast<long long>(drawn_ops - folded), "op") +
            " with the most host time drawn, " + std::to_string(folded) + " in one node";
  graph.note = std::move(note);
  return graph;
}

}  // namespace flopscope::graphs
