// summary_facts(): what summarize() derives from the op and kernel rows, walked once, from compact rows
// (analyzer/fact_rows.h) so that the same code serves a run in memory and one being written.
#include <algorithm>
#include <map>
#include <set>
#include <unordered_map>

#include "analyzer/fact_rows.h"
#include "analyzer/iterations.h"
#include "analyzer/op_category.h"
#include "analyzer/summary.h"
#include "analyzer/summary_tree.h"

namespace flopscope {
namespace {

bool counts_toward_totals(const FactOp& op) {
  return flopscope::counts_toward_totals(op.flops_source);
}

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

// One walk of a run's rows, in steps: each step fills what later steps and the facts read.
class FactWalk {
 public:
  explicit FactWalk(const FactRows& rows);
  SummaryFacts facts();

 private:
  static RunSummary module_tree(const FactRows& rows, std::unordered_map<Id, int>& index_of);
  int module_index(Id id) const {
    auto it = index_of_.find(id);
    return it == index_of_.end() ? 0 : it->second;
  }
  // The parent of an op that has one (-1 for an outermost op or a parent not in the run).
  std::ptrdiff_t parent_of(std::size_t j) const { return ops_[j].parent_op_id == kNoId ? -1 : up_[j]; }
  std::size_t outermost(std::size_t i) const;

  void add_own_costs();
  void count_calls();
  void find_gaps();
  void add_op_device_time();
  void add_kernels();
  void add_kernel_coverage(const FactKernel& k, int m, double dur, const MeasuredCounters* counters);
  void add_host_coverage();
  void module_facts(SummaryFacts& f);
  void top_op_facts(SummaryFacts& f) const;
  void gap_facts(SummaryFacts& f) const;

  const FactRows& rows_;
  const std::vector<FactOp>& ops_;
  const std::vector<FactKernel>& kernels_;
  const std::size_t n_ops_;
  double tensor_factor_ = 0;
  std::unordered_map<Id, int> index_of_;
  // A scratch summary holds the module tree and its self costs while the rows are walked.
  RunSummary s_;
  IterationIndex iter_index_;
  ModuleAccumulators acc_;
  const OpIndex op_at_;
  std::vector<std::ptrdiff_t> up_;  // each op's parent position, for walking to outermost ancestors
  // Ops below which some op counted FLOPs (> 0): a zero-FLOP child (empty, view) covers nothing.
  std::vector<char> has_counted_below_;
  std::vector<double> subtree_flops_, subtree_bytes_;  // of outermost ops
  std::vector<char> is_gap_, launched_unknown_;
  std::vector<double> op_device_, gap_device_;
  std::vector<MeasuredCounters> measured_;
  double kernel_time_ = 0, known_kernel_time_ = 0, unlinked_time_ = 0;
  double outer_time_ = 0, known_host_time_ = 0;
};

RunSummary FactWalk::module_tree(const FactRows& rows, std::unordered_map<Id, int>& index_of) {
  RunSummary s;
  s.modules = build_module_tree(rows.modules(), index_of);
  return s;
}

FactWalk::FactWalk(const FactRows& rows)
    : rows_(rows),
      ops_(rows.ops()),
      kernels_(rows.kernels()),
      n_ops_(ops_.size()),
      s_(module_tree(rows, index_of_)),
      iter_index_(rows.iterations()),
      acc_(s_.modules.size(), static_cast<std::size_t>(iter_index_.count())),
      op_at_(ops_),
      up_(n_ops_),
      has_counted_below_(n_ops_, 0),
      subtree_flops_(n_ops_, 0.0),
      subtree_bytes_(n_ops_, 0.0),
      is_gap_(n_ops_, 0),
      launched_unknown_(n_ops_, 0),
      op_device_(n_ops_, 0.0),
      gap_device_(n_ops_, 0.0),
      measured_(s_.modules.size()) {
  const std::optional<TensorPipeFactor> factor = tensor_pipe_factor(rows.info().device);
  tensor_factor_ = factor ? factor->flops_per_instruction : 0;
  s_.iterations = iter_index_.count();
  for (std::size_t i = 0; i < n_ops_; ++i) up_[i] = op_at_(ops_[i].parent_op_id);
}

std::size_t FactWalk::outermost(std::size_t i) const {
  for (int guard = 0; guard < 1000 && ops_[i].parent_op_id != kNoId; ++guard) {
    if (up_[i] < 0) break;
    i = static_cast<std::size_t>(up_[i]);
  }
  return i;
}

// Self costs per module, the counted FLOPs and bytes under each outermost op, and host time of outermost ops.
void FactWalk::add_own_costs() {
  for (std::size_t i = 0; i < n_ops_; ++i) {
    const FactOp& op = ops_[i];
    int m = module_index(op.module_id);
    Cost& c = s_.modules[static_cast<std::size_t>(m)].self;
    c.ops += 1;
    if (op.flops_source != FlopsSource::kNone) ++s_.ops_with_formula;
    if (counts_toward_totals(op)) {
      c.flops += op.flops;
      c.macs += op.macs;
      c.bytes_read += op.bytes_read;
      c.bytes_written += op.bytes_written;
      std::size_t top = outermost(i);
      subtree_flops_[top] += op.flops;
      subtree_bytes_[top] += op.bytes_read + op.bytes_written;
      // Mark every ancestor as covering counted work.
      std::size_t j = i;
      for (int guard = 0; guard < 1000 && op.flops > 0; ++guard) {
        has_counted_below_[j] = 1;
        const std::ptrdiff_t p = parent_of(j);
        if (p < 0) break;
        j = static_cast<std::size_t>(p);
      }
    }
    if (op.parent_op_id == kNoId) {
      acc_.self_time[static_cast<std::size_t>(m)].add(iter_index_(op.iteration),
                                                      static_cast<double>(op.duration_ns));
    }
  }
  s_.ops_total = static_cast<std::int64_t>(n_ops_);
  acc_.calls = move_split_ops(
      ops_, up_, [this](Id id) { return module_index(id); }, iter_index_, s_.modules, acc_.self_time);
}

// Calls: contiguous spans of outermost ops per module subtree, in start order per iteration.
void FactWalk::count_calls() {
  std::vector<std::size_t> outer;
  for (std::size_t i = 0; i < n_ops_; ++i) {
    if (ops_[i].parent_op_id == kNoId) outer.push_back(i);
  }
  std::sort(outer.begin(), outer.end(), [&](std::size_t a, std::size_t b) {
    const auto &x = ops_[a], &y = ops_[b];
    return std::tie(x.iteration, x.sequence) < std::tie(y.iteration, y.sequence);
  });
  // A module's call starts where it enters the chain of modules of the current op. The chain shared with
  // the previous op is found by walking up from the op's module to the first module on the previous chain
  // (pos: a module's place on it, -1 off it), so an op costs the modules it enters and leaves, not its
  // depth: O(ops + calls), whatever the hierarchy's depth.
  std::vector<int> pos(s_.modules.size(), -1);
  std::vector<int> prev, entered;
  int prev_iter = 0;
  bool first = true;
  auto leave_from = [&](std::size_t keep) {
    for (std::size_t k = keep; k < prev.size(); ++k) pos[static_cast<std::size_t>(prev[k])] = -1;
    prev.resize(keep);
  };
  for (std::size_t i : outer) {
    if (first || ops_[i].iteration != prev_iter) leave_from(0);
    first = false;
    prev_iter = ops_[i].iteration;
    entered.clear();
    int m = module_index(ops_[i].module_id);
    while (m >= 0 && pos[static_cast<std::size_t>(m)] < 0) {
      entered.push_back(m);
      m = s_.modules[static_cast<std::size_t>(m)].parent;
    }
    leave_from(m >= 0 ? static_cast<std::size_t>(pos[static_cast<std::size_t>(m)]) + 1 : 0);
    for (auto it = entered.rbegin(); it != entered.rend(); ++it) {
      pos[static_cast<std::size_t>(*it)] = static_cast<int>(prev.size());
      prev.push_back(*it);
      acc_.calls[static_cast<std::size_t>(*it)] += 1;
    }
  }
}

// Ops whose FLOPs nobody knows: no formula and no FLOPs counted below them. Communication ops (every kernel
// under them a communication kernel: NCCL all-reduce) do no FLOPs by convention, as their kernels are left
// out of coverage: they are no gap and make no module's FLOPs a lower bound (a module whose only unknown op
// is a collective has complete FLOPs).
void FactWalk::find_gaps() {
  std::vector<char> compute_below(n_ops_, 0), comm_below(n_ops_, 0);
  for (const FactKernel& k : kernels_) {
    if (k.op_id == kNoId) continue;
    auto& below = k.category == KernelCategory::kCommunication ? comm_below : compute_below;
    std::ptrdiff_t j = op_at_(k.op_id);
    for (int guard = 0; guard < 1000 && j >= 0; ++guard, j = parent_of(static_cast<std::size_t>(j))) {
      if (below[static_cast<std::size_t>(j)]) break;  // the rest of the chain is marked already
      below[static_cast<std::size_t>(j)] = 1;
    }
  }
  // A collective named as one (record_param_comms, c10d::allreduce_, nccl:all_reduce: op_category) is
  // communication too when no kernel of it was recorded (a CPU run, a trace without its NCCL kernels).
  std::unordered_map<std::uint32_t, bool> comm_name;
  auto named_communication = [&](std::uint32_t name) {
    auto it = comm_name.find(name);
    if (it == comm_name.end())
      it = comm_name.emplace(name, op_category(rows_.text(name)) == OpCategory::kCommunication).first;
    return it->second;
  };
  for (std::size_t i = 0; i < n_ops_; ++i) {
    const bool communication = !compute_below[i] && (comm_below[i] || named_communication(ops_[i].name));
    is_gap_[i] = ops_[i].flops_source == FlopsSource::kNone && !has_counted_below_[i] && !communication;
  }
}

// Device time of each op: its kernels' and, up its chain, its callees'.
void FactWalk::add_op_device_time() {
  for (const FactKernel& k : kernels_) {
    if (k.iteration < 0 || k.op_id == kNoId) continue;
    std::ptrdiff_t j = op_at_(k.op_id);
    for (int guard = 0; guard < 1000 && j >= 0; ++guard, j = parent_of(static_cast<std::size_t>(j))) {
      op_device_[static_cast<std::size_t>(j)] += static_cast<double>(k.duration_ns);
    }
  }
}

// Kernels: device time, measured counters, attribution, and whether their FLOPs are known.
void FactWalk::add_kernels() {
  for (const FactKernel& k : kernels_) {
    s_.has_kernels = true;
    int m = module_index(k.module_id);
    const auto dur = static_cast<double>(k.duration_ns);
    auto& a = s_.attribution;
    a.kernels += 1;
    a.kernel_time_ns += dur;
    if (k.op_id != kNoId) a.kernels_with_op += 1;
    if (k.module_id != kNoId && m != 0) {
      a.kernels_with_module += 1;
      a.kernel_time_attributed_ns += dur;
    }
    if (k.iteration < 0) {
      s_.orphans.kernels += 1;
      s_.orphans.time_ns += dur;
      continue;
    }
    s_.modules[static_cast<std::size_t>(m)].self.kernels += 1;
    const MeasuredCounters* counters =
        k.counters >= 0 ? &rows_.counters()[static_cast<std::size_t>(k.counters)] : nullptr;
    if (counters != nullptr) add_counters(measured_[static_cast<std::size_t>(m)], *counters);
    acc_.gpu_time[static_cast<std::size_t>(m)].add(iter_index_(k.iteration), dur);
    // Coverage is about compute kernels: communication, copies and memsets do no FLOPs by convention.
    if (k.category == KernelCategory::kCommunication) acc_.comm[static_cast<std::size_t>(m)] += dur;
    if (k.category == KernelCategory::kCompute) add_kernel_coverage(k, m, dur, counters);
  }
  s_.timeline = timeline_facts(std::span<const FactKernel>(kernels_));
}

// A compute kernel's work is counted when an op on its launch chain has a formula (or sits inside one);
// otherwise it is unknown and charged to every gap op on the chain (or to the op that launched it).
void FactWalk::add_kernel_coverage(const FactKernel& k, int m, double dur, const MeasuredCounters* counters) {
  kernel_time_ += dur;
  if (counters != nullptr && counters->flops + counters->tensor_inst * tensor_factor_ > 0) {
    // measured: known by counters
    known_kernel_time_ += dur;
    return;
  }
  const std::ptrdiff_t launcher = k.op_id == kNoId ? -1 : op_at_(k.op_id);
  if (launcher < 0) {
    unlinked_time_ += dur;
    acc_.unknown_gpu[static_cast<std::size_t>(m)] += dur;
    return;
  }
  bool covered = false, gap_on_chain = false;
  std::ptrdiff_t j = launcher;
  for (int guard = 0; guard < 1000 && j >= 0 && !covered;
       ++guard, j = parent_of(static_cast<std::size_t>(j))) {
    covered = ops_[static_cast<std::size_t>(j)].flops_source != FlopsSource::kNone;
  }
  if (covered) {
    known_kernel_time_ += dur;
    return;
  }
  acc_.unknown_gpu[static_cast<std::size_t>(m)] += dur;
  j = launcher;
  for (int guard = 0; guard < 1000 && j >= 0; ++guard, j = parent_of(static_cast<std::size_t>(j))) {
    auto u = static_cast<std::size_t>(j);
    if (is_gap_[u]) {
      gap_device_[u] += dur;
      gap_on_chain = true;
    }
  }
  if (!gap_on_chain) {
    gap_device_[static_cast<std::size_t>(launcher)] += dur;
    launched_unknown_[static_cast<std::size_t>(launcher)] = 1;
  }
}

// Host time: known under the outermost ops with a formula; unknown under the outermost gap ops.
void FactWalk::add_host_coverage() {
  for (std::size_t i = 0; i < n_ops_; ++i) {
    const FactOp& op = ops_[i];
    auto p = parent_of(i);
    const auto dur = static_cast<double>(op.duration_ns);
    if (p < 0) outer_time_ += dur;
    bool parent_known = p >= 0 && ops_[static_cast<std::size_t>(p)].flops_source != FlopsSource::kNone;
    if (op.flops_source != FlopsSource::kNone && !parent_known) known_host_time_ += dur;
    if (is_gap_[i] || launched_unknown_[i]) {
      auto m = static_cast<std::size_t>(module_index(op.module_id));
      acc_.gap_in_module[m] = 1;
      if (p < 0 || !is_gap_[static_cast<std::size_t>(p)]) acc_.unknown_host[m] += dur;
    }
  }
}

void FactWalk::module_facts(SummaryFacts& f) {
  f.modules.resize(s_.modules.size());
  for (std::size_t i = 0; i < s_.modules.size(); ++i) {
    const Cost& c = s_.modules[i].self;
    const MeasuredCounters& m = measured_[i];
    ModuleFacts& mf = f.modules[i];
    mf.module_id = s_.modules[i].module_id;
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
    mf.calls = acc_.calls[i];
    mf.comm_ns = acc_.comm[i];
    mf.unknown_device_ns = acc_.unknown_gpu[i];
    mf.unknown_host_ns = acc_.unknown_host[i];
    mf.gap = acc_.gap_in_module[i] != 0;
    acc_.self_time[i].normalise();
    acc_.gpu_time[i].normalise();
    mf.host_ns.assign(acc_.self_time[i].entries().begin(), acc_.self_time[i].entries().end());
    mf.device_ns.assign(acc_.gpu_time[i].entries().begin(), acc_.gpu_time[i].entries().end());
  }
}

// Top ops: outermost ops grouped by name and module, with the counted FLOPs of their subtree.
void FactWalk::top_op_facts(SummaryFacts& f) const {
  std::map<std::pair<std::string, int>, TopOpFacts> groups;
  for (std::size_t i = 0; i < n_ops_; ++i) {
    const FactOp& op = ops_[i];
    if (op.parent_op_id != kNoId) continue;
    int m = module_index(op.module_id);
    const std::string& name = rows_.text(op.name);
    auto& g = groups[{name, m}];
    g.name = name;
    g.module_id = s_.modules[static_cast<std::size_t>(m)].module_id;
    g.calls += 1;
    g.flops += subtree_flops_[i];
    g.bytes += subtree_bytes_[i];
    g.time_ns += static_cast<double>(op.duration_ns);
    g.device_time_ns += op_device_[i];
    g.flops_source = op.flops_source;
  }
  f.top_ops.reserve(groups.size());
  for (auto& [key, g] : groups) f.top_ops.push_back(std::move(g));
}

// Coverage: ops without a count and without counted work below them.
void FactWalk::gap_facts(SummaryFacts& f) const {
  std::map<std::string, GapFacts> gaps;
  for (std::size_t i = 0; i < n_ops_; ++i) {
    const FactOp& op = ops_[i];
    if (!is_gap_[i] && !launched_unknown_[i]) continue;
    const std::string& name = rows_.text(op.name);
    auto& g = gaps[name];
    g.name = name;
    g.count += 1;
    // Time inside a gap op of the same name is that op's time already (identical nested ops, recursion):
    // counted once, or four identical ops would be 400% of the host time.
    bool inside_same = false;
    std::ptrdiff_t j = parent_of(i);
    for (int guard = 0; guard < 1000 && j >= 0 && !inside_same;
         ++guard, j = parent_of(static_cast<std::size_t>(j))) {
      const auto u = static_cast<std::size_t>(j);
      inside_same = (is_gap_[u] || launched_unknown_[u]) && ops_[u].name == op.name;
    }
    if (inside_same) continue;
    g.time_ns += static_cast<double>(op.duration_ns);
    g.device_time_ns += gap_device_[i];
    if (g.note.empty()) g.note = rows_.text(op.note);
  }
  f.gaps.reserve(gaps.size());
  for (auto& [name, g] : gaps) f.gaps.push_back(std::move(g));
}

SummaryFacts FactWalk::facts() {
  add_own_costs();
  count_calls();
  find_gaps();
  add_op_device_time();
  add_kernels();
  add_host_coverage();
  SummaryFacts f;
  f.present = true;
  f.has_kernels = s_.has_kernels;
  f.ops_total = s_.ops_total;
  f.ops_with_formula = s_.ops_with_formula;
  f.orphan_kernels = s_.orphans.kernels;
  f.orphan_ns = s_.orphans.time_ns;
  f.kernels = s_.attribution.kernels;
  f.kernels_with_op = s_.attribution.kernels_with_op;
  f.kernels_with_module = s_.attribution.kernels_with_module;
  f.kernel_time_ns = s_.attribution.kernel_time_ns;
  f.kernel_time_attributed_ns = s_.attribution.kernel_time_attributed_ns;
  f.compute_ns = kernel_time_;
  f.known_compute_ns = known_kernel_time_;
  f.unlinked_compute_ns = unlinked_time_;
  f.outer_host_ns = outer_time_;
  f.known_host_ns = known_host_time_;
  f.timeline = std::move(s_.timeline);
  module_facts(f);
  top_op_facts(f);
  gap_facts(f);
  return f;
}

}  // namespace

SummaryFacts summary_facts(const RunData& run) {
  return summary_facts(FactRows(run));
}

SummaryFacts summary_facts(const FactRows& rows) {
  return FactWalk(rows).facts();
}

}  // namespace flopscope
