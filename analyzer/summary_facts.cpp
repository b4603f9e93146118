// summary_facts(): what summarize() derives from the op and kernel rows, walked once, from compact rows
// (analyzer/fact_rows.h) so that the same code serves a run in memory and one being written.
#include <algorithm>
#include <map>
#include <set>
#include <unordered_map>

#include "analyzer/fact_rows.h"
#include "analyzer/iterations.h"
#include "analyzer/summary.h"
#include "analyzer/summary_tree.h"

namespace flopscope {
namespace {

bool counts_toward_totals(const FactOp& op) { return flopscope::counts_toward_totals(op.flops_source); }

// A module's counters plus one kernel's: the same sums, in the same order, as MeasuredCounters::add() of
// each kernel record (a kernel's own counters were made by add() from zero, so each field is exact).
void add_counters(MeasuredCounters& to, const MeasuredCounters& k) {
  to.flops += k.flops;
  to.dram_bytes += k.dram_bytes;
  to.dram_read += k.dram_read;
  to.dram_written += k.dram_written;
  to.dram_unsplit += k.dram_unsplit;
  to.tensor_inst += k.tensor_inst;
}

// Op positions by id, the last op of an id winning. Ids 0..n-1 in row order (every import and profile)
// need no table.
class OpIndex {
 public:
  explicit OpIndex(const std::vector<FactOp>& ops) : size_(static_cast<std::ptrdiff_t>(ops.size())) {
    for (std::size_t i = 0; i < ops.size() && dense_; ++i) dense_ = ops[i].id == static_cast<Id>(i);
    if (dense_) return;
    at_.reserve(ops.size());
    for (std::size_t i = 0; i < ops.size(); ++i) at_[ops[i].id] = static_cast<std::ptrdiff_t>(i);
  }
  // -1 when no op has the id.
  std::ptrdiff_t operator()(Id id) const {
    if (dense_) return id >= 0 && id < size_ ? static_cast<std::ptrdiff_t>(id) : -1;
    auto it = at_.find(id);
    return it == at_.end() ? -1 : it->second;
  }

 private:
  std::ptrdiff_t size_;
  bool dense_ = true;
  std::unordered_map<Id, std::ptrdiff_t> at_;
};

// Ops nested in an op of another module (a fused op's inner ops given to their submodules by
// analyzer/fused_split): their time moves from the enclosing op's module to their own, and so does their
// share of the counted ancestor's FLOPs, MACs and bytes (scaled down when the inner counts exceed the
// ancestor's, so totals never change and no module goes negative).
// Returns the calls this adds per module: one per enclosing op, for the module and its ancestors below the
// enclosing op's module (a fused call runs each submodule once).
// up[i]: the position of op i's parent id (-1 when no op has it).
template <typename ModuleIndex>
std::vector<double> move_split_ops(const std::vector<FactOp>& ops, const std::vector<std::ptrdiff_t>& up,
                                   const ModuleIndex& module_index, const IterationIndex& iter_index,
                                   std::vector<ModuleSummary>& modules,
                                   std::vector<IterationSeries>& self_time) {
  std::vector<double> calls(modules.size(), 0.0);
  std::set<std::pair<std::size_t, int>> called;  // (enclosing op, module)
  struct Split {
    std::size_t op, ancestor;
    int from, to;
  };
  std::vector<Split> splits;
  std::unordered_map<std::size_t, double> inner_flops;  // by counted ancestor
  for (std::size_t i = 0; i < ops.size(); ++i) {
    const FactOp& op = ops[i];
    if (op.parent_op_id == kNoId || up[i] < 0) continue;
    const auto parent = static_cast<std::size_t>(up[i]);
    int from = module_index(ops[parent].module_id), to = module_index(op.module_id);
    if (from == to) continue;
    for (int m = to; m >= 0 && m != from; m = modules[static_cast<std::size_t>(m)].parent) {
      if (called.insert({parent, m}).second) calls[static_cast<std::size_t>(m)] += 1;
    }
    const auto dur = static_cast<double>(op.duration_ns);
    self_time[static_cast<std::size_t>(to)].add(iter_index(op.iteration), dur);
    self_time[static_cast<std::size_t>(from)].add(iter_index(op.iteration), -dur);
    if (op.flops_source != FlopsSource::kNested) continue;
    std::size_t a = parent;
    for (int guard = 0; guard < 1000 && !counts_toward_totals(ops[a]); ++guard) {
      if (up[a] < 0) break;
      a = static_cast<std::size_t>(up[a]);
    }
    if (!counts_toward_totals(ops[a])) continue;
    splits.push_back({i, a, from, to});
    if (from == module_index(ops[a].module_id)) inner_flops[a] += op.flops;
  }
  for (const Split& sp : splits) {
    const FactOp& op = ops[sp.op];
    const FactOp& anc = ops[sp.ancestor];
    double inner = inner_flops[sp.ancestor];
    double scale = inner > anc.flops && inner > 0 ? anc.flops / inner : 1.0;
    double share = anc.flops > 0 ? op.flops * scale / anc.flops : 0.0;
    Cost& from = modules[static_cast<std::size_t>(sp.from)].self;
    Cost& to = modules[static_cast<std::size_t>(sp.to)].self;
    auto move = [&](double Cost::*field, double amount) {
      from.*field -= amount;
      to.*field += amount;
    };
    move(&Cost::flops, op.flops * scale);
    move(&Cost::macs, std::min(op.macs * scale, anc.macs * share));
    move(&Cost::bytes_read, anc.bytes_read * share);
    move(&Cost::bytes_written, anc.bytes_written * share);
  }
  return calls;
}

}  // namespace

SummaryFacts summary_facts(const RunData& run) {
  return summary_facts(FactRows(run));
}

SummaryFacts summary_facts(const FactRows& rows) {
  const std::vector<FactOp>& ops = rows.ops();
  const std::vector<FactKernel>& kernels = rows.kernels();
  // A scratch summary holds the module tree and its self costs while the rows are walked.
  RunSummary s;
  const std::optional<TensorPipeFactor> factor = tensor_pipe_factor(rows.info().device);
  const double tensor_factor = factor ? factor->flops_per_instruction : 0;
  std::unordered_map<Id, int> index_of;
  s.modules = build_module_tree(rows.modules(), index_of);
  const std::size_t n_mod = s.modules.size();
  auto module_index = [&](Id id) {
    auto it = index_of.find(id);
    return it == index_of.end() ? 0 : it->second;
  };

  const IterationIndex iter_index(rows.iterations());
  s.iterations = iter_index.count();
  const auto n_it = static_cast<std::size_t>(s.iterations);

  ModuleAccumulators acc(n_mod, n_it);
  std::vector<IterationSeries>& self_time = acc.self_time;
  std::vector<IterationSeries>& gpu_time = acc.gpu_time;
  std::vector<double>& calls = acc.calls;

  // Each op's parent position, for walking to outermost ancestors.
  const std::size_t n_ops = ops.size();
  const OpIndex op_at(ops);
  std::vector<std::ptrdiff_t> up(n_ops);
  for (std::size_t i = 0; i < n_ops; ++i) up[i] = op_at(ops[i].parent_op_id);
  auto outermost = [&](std::size_t i) {
    for (int guard = 0; guard < 1000 && ops[i].parent_op_id != kNoId; ++guard) {
      if (up[i] < 0) break;
      i = static_cast<std::size_t>(up[i]);
    }
    return i;
  };
  // The parent of an op that has one (-1 for an outermost op or a parent not in the run).
  auto parent_of = [&](std::size_t j) -> std::ptrdiff_t { return ops[j].parent_op_id == kNoId ? -1 : up[j]; };

  // Ops below which some op counted FLOPs (> 0): a zero-FLOP child (empty, view) covers nothing.
  std::vector<char> has_counted_below(n_ops, 0);
  std::vector<double> subtree_flops(n_ops, 0.0), subtree_bytes(n_ops, 0.0);
  for (std::size_t i = 0; i < n_ops; ++i) {
    const FactOp& op = ops[i];
    int m = module_index(op.module_id);
    Cost& c = s.modules[static_cast<std::size_t>(m)].self;
    c.ops += 1;
    if (op.flops_source != FlopsSource::kNone) ++s.ops_with_formula;
    if (counts_toward_totals(op)) {
      c.flops += op.flops;
      c.macs += op.macs;
      c.bytes_read += op.bytes_read;
      c.bytes_written += op.bytes_written;
      std::size_t top = outermost(i);
      subtree_flops[top] += op.flops;
      subtree_bytes[top] += op.bytes_read + op.bytes_written;
      // Mark every ancestor as covering counted work.
      std::size_t j = i;
      for (int guard = 0; guard < 1000 && op.flops > 0; ++guard) {
        has_counted_below[j] = 1;
        const std::ptrdiff_t p = parent_of(j);
        if (p < 0) break;
        j = static_cast<std::size_t>(p);
      }
    }
    if (op.parent_op_id == kNoId) {
      self_time[static_cast<std::size_t>(m)].add(iter_index(op.iteration),
                                                 static_cast<double>(op.duration_ns));
    }
  }
  s.ops_total = static_cast<std::int64_t>(n_ops);
  calls = move_split_ops(ops, up, module_index, iter_index, s.modules, self_time);

  // Calls: contiguous spans of outermost ops per module subtree, in start order per iteration.
  {
    std::vector<std::size_t> outer;
    for (std::size_t i = 0; i < n_ops; ++i) {
      if (ops[i].parent_op_id == kNoId) outer.push_back(i);
    }
    std::sort(outer.begin(), outer.end(), [&](std::size_t a, std::size_t b) {
      const auto &x = ops[a], &y = ops[b];
      return std::tie(x.iteration, x.sequence) < std::tie(y.iteration, y.sequence);
    });
    // A module's call starts where it enters the chain of modules of the current op: chains run from the
    // root down, so the modules shared with the previous op's chain are a common prefix. O(depth) per op.
    std::vector<int> prev, chain;
    int prev_iter = 0;
    bool first = true;
    for (std::size_t i : outer) {
      if (first || ops[i].iteration != prev_iter) prev.clear();
      first = false;
      prev_iter = ops[i].iteration;
      chain.clear();
      for (int m = module_index(ops[i].module_id); m >= 0;
           m = s.modules[static_cast<std::size_t>(m)].parent) {
        chain.push_back(m);
      }
      std::reverse(chain.begin(), chain.end());
      std::size_t common = 0;
      while (common < prev.size() && common < chain.size() && prev[common] == chain[common]) ++common;
      for (std::size_t k = common; k < chain.size(); ++k) calls[static_cast<std::size_t>(chain[k])] += 1;
      prev.swap(chain);
    }
  }

  // Ops whose FLOPs nobody knows: no formula and no FLOPs counted below them.
  std::vector<char> is_gap(n_ops, 0);
  for (std::size_t i = 0; i < n_ops; ++i) {
    is_gap[i] = ops[i].flops_source == FlopsSource::kNone && !has_counted_below[i];
  }

  // Device time of each op: its kernels' and, up its chain, its callees'.
  std::vector<double> op_device(n_ops, 0.0);
  for (const FactKernel& k : kernels) {
    if (k.iteration < 0 || k.op_id == kNoId) continue;
    std::ptrdiff_t j = op_at(k.op_id);
    for (int guard = 0; guard < 1000 && j >= 0; ++guard, j = parent_of(static_cast<std::size_t>(j))) {
      op_device[static_cast<std::size_t>(j)] += static_cast<double>(k.duration_ns);
    }
  }

  // Kernels: device time, measured counters, attribution, and whether their FLOPs are known: a kernel's work
  // is counted when an op on its launch chain has a formula (or sits inside one); otherwise it is unknown
  // and charged to every gap op on the chain (or to the op that launched it).
  std::vector<double> gap_device(n_ops, 0.0);
  std::vector<char> launched_unknown(n_ops, 0);
  std::vector<double>&comm = acc.comm, &unknown_gpu = acc.unknown_gpu;
  double kernel_time = 0, known_kernel_time = 0, unlinked_time = 0;
  std::vector<MeasuredCounters> measured(n_mod);
  for (const FactKernel& k : kernels) {
    s.has_kernels = true;
    int m = module_index(k.module_id);
    const auto dur = static_cast<double>(k.duration_ns);
    auto& a = s.attribution;
    a.kernels += 1;
    a.kernel_time_ns += dur;
    if (k.op_id != kNoId) a.kernels_with_op += 1;
    if (k.module_id != kNoId && m != 0) {
      a.kernels_with_module += 1;
      a.kernel_time_attributed_ns += dur;
    }
    if (k.iteration < 0) {
      s.orphans.kernels += 1;
      s.orphans.time_ns += dur;
      continue;
    }
    s.modules[static_cast<std::size_t>(m)].self.kernels += 1;
    const MeasuredCounters* counters =
        k.counters >= 0 ? &rows.counters()[static_cast<std::size_t>(k.counters)] : nullptr;
    if (counters != nullptr) add_counters(measured[static_cast<std::size_t>(m)], *counters);
    gpu_time[static_cast<std::size_t>(m)].add(iter_index(k.iteration), dur);
    // Coverage is about compute kernels: communication, copies and memsets do no FLOPs by convention.
    if (k.category == KernelCategory::kCommunication) comm[static_cast<std::size_t>(m)] += dur;
    if (k.category != KernelCategory::kCompute) continue;
    kernel_time += dur;
    if (counters != nullptr && counters->flops + counters->tensor_inst * tensor_factor > 0) {
      // measured: known by counters
      known_kernel_time += dur;
      continue;
    }
    const std::ptrdiff_t launcher = k.op_id == kNoId ? -1 : op_at(k.op_id);
    if (launcher < 0) {
      unlinked_time += dur;
      unknown_gpu[static_cast<std::size_t>(m)] += dur;
      continue;
    }
    bool covered = false, gap_on_chain = false;
    std::ptrdiff_t j = launcher;
    for (int guard = 0; guard < 1000 && j >= 0 && !covered;
         ++guard, j = parent_of(static_cast<std::size_t>(j))) {
      covered = ops[static_cast<std::size_t>(j)].flops_source != FlopsSource::kNone;
    }
    if (covered) {
      known_kernel_time += dur;
      continue;
    }
    unknown_gpu[static_cast<std::size_t>(m)] += dur;
    j = launcher;
    for (int guard = 0; guard < 1000 && j >= 0; ++guard, j = parent_of(static_cast<std::size_t>(j))) {
      auto u = static_cast<std::size_t>(j);
      if (is_gap[u]) {
        gap_device[u] += dur;
        gap_on_chain = true;
      }
    }
    if (!gap_on_chain) {
      gap_device[static_cast<std::size_t>(launcher)] += dur;
      launched_unknown[static_cast<std::size_t>(launcher)] = 1;
    }
  }
  s.timeline = timeline_facts(std::span<const FactKernel>(kernels));

  // Host time: known under the outermost ops with a formula; unknown under the outermost gap ops.
  std::vector<double>& unknown_host = acc.unknown_host;
  std::vector<char>& gap_in_module = acc.gap_in_module;
  double outer_time = 0, known_host_time = 0;
  for (std::size_t i = 0; i < n_ops; ++i) {
    const FactOp& op = ops[i];
    auto p = parent_of(i);
    const auto dur = static_cast<double>(op.duration_ns);
    if (p < 0) outer_time += dur;
    bool parent_known = p >= 0 && ops[static_cast<std::size_t>(p)].flops_source != FlopsSource::kNone;
    if (op.flops_source != FlopsSource::kNone && !parent_known) known_host_time += dur;
    if (is_gap[i] || launched_unknown[i]) {
      auto m = static_cast<std::size_t>(module_index(op.module_id));
      gap_in_module[m] = 1;
      if (p < 0 || !is_gap[static_cast<std::size_t>(p)]) unknown_host[m] += dur;
    }
  }
  SummaryFacts f;
  f.present = true;
  f.has_kernels = s.has_kernels;
  f.ops_total = s.ops_total;
  f.ops_with_formula = s.ops_with_formula;
  f.orphan_kernels = s.orphans.kernels;
  f.orphan_ns = s.orphans.time_ns;
  f.kernels = s.attribution.kernels;
  f.kernels_with_op = s.attribution.kernels_with_op;
  f.kernels_with_module = s.attribution.kernels_with_module;
  f.kernel_time_ns = s.attribution.kernel_time_ns;
  f.kernel_time_attributed_ns = s.attribution.kernel_time_attributed_ns;
  f.compute_ns = kernel_time;
  f.known_compute_ns = known_kernel_time;
  f.unlinked_compute_ns = unlinked_time;
  f.outer_host_ns = outer_time;
  f.known_host_ns = known_host_time;
  f.timeline = std::move(s.timeline);
  f.modules.resize(n_mod);
  for (std::size_t i = 0; i < n_mod; ++i) {
    const Cost& c = s.modules[i].self;
    const MeasuredCounters& m = measured[i];
    ModuleFacts& mf = f.modules[i];
    mf.module_id = s.modules[i].module_id;
    mf.ops = c.ops;
    mf.flops = c.flops;
    mf.macs = c.macs;
    mf.bytes_read = c.bytes_read;
    mf.bytes_written = c.bytes_written;
    mf.kernels = c.kernels;
    mf.measured_flops = m.flops;
    mf.dram_bytes = m.dram_bytes;
    mf.dram_read = m.dram_read;
    mf.dram_written = m.dram_written;
    mf.dram_unsplit = m.dram_unsplit;
    mf.tensor_inst = m.tensor_inst;
    mf.calls = calls[i];
    mf.comm_ns = comm[i];
    mf.unknown_device_ns = unknown_gpu[i];
    mf.unknown_host_ns = unknown_host[i];
    mf.gap = gap_in_module[i] != 0;
    self_time[i].normalise();
    gpu_time[i].normalise();
    mf.host_ns.assign(self_time[i].entries().begin(), self_time[i].entries().end());
    mf.device_ns.assign(gpu_time[i].entries().begin(), gpu_time[i].entries().end());
  }

  // Top ops: outermost ops grouped by name and module, with the counted FLOPs of their subtree.
  {
    std::map<std::pair<std::string, int>, TopOpFacts> groups;
    for (std::size_t i = 0; i < n_ops; ++i) {
      const FactOp& op = ops[i];
      if (op.parent_op_id != kNoId) continue;
      int m = module_index(op.module_id);
      const std::string& name = rows.text(op.name);
      auto& g = groups[{name, m}];
      g.name = name;
      g.module_id = s.modules[static_cast<std::size_t>(m)].module_id;
      g.calls += 1;
      g.flops += subtree_flops[i];
      g.bytes += subtree_bytes[i];
      g.time_ns += static_cast<double>(op.duration_ns);
      g.device_time_ns += op_device[i];
      g.flops_source = op.flops_source;
    }
    f.top_ops.reserve(groups.size());
    for (auto& [key, g] : groups) f.top_ops.push_back(std::move(g));
  }

  // Coverage: ops without a count and without counted work below them.
  {
    std::map<std::string, GapFacts> gaps;
    for (std::size_t i = 0; i < n_ops; ++i) {
      const FactOp& op = ops[i];
      if (!is_gap[i] && !launched_unknown[i]) continue;
      const std::string& name = rows.text(op.name);
      auto& g = gaps[name];
      g.name = name;
      g.count += 1;
      g.time_ns += static_cast<double>(op.duration_ns);
      g.device_time_ns += gap_device[i];
      if (g.note.empty()) g.note = rows.text(op.note);
    }
    f.gaps.reserve(gaps.size());
    for (auto& [name, g] : gaps) f.gaps.push_back(std::move(g));
  }
  return f;
}

}  // namespace flopscope
