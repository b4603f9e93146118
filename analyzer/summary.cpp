#include "analyzer/summary.h"

#include <algorithm>
#include <map>
#include <set>
#include <string_view>
#include <unordered_map>

#include "analyzer/clock.h"
#include "analyzer/iterations.h"
#include "analyzer/op_groups.h"
#include "analyzer/summary_tree.h"
#include "analyzer/timeline.h"

namespace flopscope {
namespace {

void add_cost(Cost& to, const Cost& from) {
  to.flops += from.flops;
  to.macs += from.macs;
  to.bytes_read += from.bytes_read;
  to.bytes_written += from.bytes_written;
  to.measured_flops += from.measured_flops;
  to.dram_bytes += from.dram_bytes;
  to.dram_read += from.dram_read;
  to.dram_written += from.dram_written;
  to.dram_unsplit += from.dram_unsplit;
  to.tensor_inst += from.tensor_inst;
  to.tensor_flops += from.tensor_flops;
  to.ops += from.ops;
  to.kernels += from.kernels;
}

void scale_cost(Cost& c, double f) {
  c.flops *= f;
  c.macs *= f;
  c.bytes_read *= f;
  c.bytes_written *= f;
  c.measured_flops *= f;
  c.dram_bytes *= f;
  c.dram_read *= f;
  c.dram_written *= f;
  c.dram_unsplit *= f;
  c.tensor_inst *= f;
  c.tensor_flops *= f;
  c.ops *= f;
  c.kernels *= f;
}

}  // namespace

void add_measured(Cost& c, const MeasuredCounters& m, double tensor_factor) {
  c.measured_flops += m.flops;
  c.dram_bytes += m.dram_bytes;
  c.dram_read += m.dram_read;
  c.dram_written += m.dram_written;
  c.dram_unsplit += m.dram_unsplit;
  c.tensor_inst += m.tensor_inst;
  c.tensor_flops += m.tensor_inst * tensor_factor;
}

std::vector<ModuleSummary> build_module_tree(const RunData& run, std::unordered_map<Id, int>& index_of) {
  std::vector<ModuleSummary> out;
  std::unordered_map<Id, std::vector<std::size_t>> kids;
  std::size_t root = run.modules.size();
  for (std::size_t i = 0; i < run.modules.size(); ++i) {
    const auto& m = run.modules[i];
    if (m.parent_id == kNoId && (root == run.modules.size() || m.path.empty())) root = i;
  }
  for (std::size_t i = 0; i < run.modules.size(); ++i) {
    if (i == root) continue;
    Id parent = run.modules[i].parent_id;
    if (parent == kNoId && root < run.modules.size()) parent = run.modules[root].id;
    kids[parent].push_back(i);
  }
  ModuleSummary root_summary;
  if (root < run.modules.size()) {
    root_summary.module_id = run.modules[root].id;
    root_summary.type = run.modules[root].type;
  }
  out.push_back(root_summary);
  index_of[root_summary.module_id] = 0;
  // Iterative pre-order walk.
  std::vector<std::pair<Id, int>> stack{{root_summary.module_id, 0}};
  while (!stack.empty()) {
    auto [id, idx] = stack.back();
    stack.pop_back();
    auto it = kids.find(id);
    if (it == kids.end()) continue;
    // Push in reverse so children come out in module order.
    std::vector<std::pair<Id, int>> pending;
    for (std::size_t k : it->second) {
      const auto& m = run.modules[k];
      ModuleSummary s;
      s.module_id = m.id;
      s.path = m.path;
      s.type = m.type;
      s.parent = idx;
      s.depth = out[idx].depth + 1;
      out.push_back(s);
      int child = static_cast<int>(out.size() - 1);
      out[idx].children.push_back(child);
      index_of[m.id] = child;
      pending.emplace_back(m.id, child);
    }
    for (auto p = pending.rbegin(); p != pending.rend(); ++p) stack.push_back(*p);
  }
  // Re-number in true pre-order (the walk above appended children breadth-first per parent).
  std::vector<int> order;
  order.reserve(out.size());
  std::vector<int> walk{0};
  while (!walk.empty()) {
    int i = walk.back();
    walk.pop_back();
    order.push_back(i);
    for (auto c = out[i].children.rbegin(); c != out[i].children.rend(); ++c) walk.push_back(*c);
  }
  std::vector<int> new_index(out.size());
  for (std::size_t k = 0; k < order.size(); ++k) new_index[order[k]] = static_cast<int>(k);
  std::vector<ModuleSummary> sorted(out.size());
  for (std::size_t k = 0; k < order.size(); ++k) {
    ModuleSummary s = std::move(out[order[k]]);
    if (s.parent >= 0) s.parent = new_index[s.parent];
    for (int& c : s.children) c = new_index[c];
    sorted[k] = std::move(s);
  }
  for (auto& [id, i] : index_of) i = new_index[i];
  return sorted;
}

namespace {

// Ops nested in an op of another module (a fused op's inner ops given to their submodules by
// analyzer/fused_split): their time moves from the enclosing op's module to their own, and so does their
// share of the counted ancestor's FLOPs, MACs and bytes (scaled down when the inner counts exceed the
// ancestor's, so totals never change and no module goes negative).
// Returns the calls this adds per module: one per enclosing op, for the module and its ancestors below the
// enclosing op's module (a fused call runs each submodule once).
template <typename ModuleIndex>
std::vector<double> move_split_ops(const RunData& run, const std::unordered_map<Id, std::size_t>& op_at,
                                   const ModuleIndex& module_index, const IterationIndex& iter_index,
                                   std::vector<ModuleSummary>& modules, std::vector<IterationSeries>& self_time) {
  std::vector<double> calls(modules.size(), 0.0);
  std::set<std::pair<std::size_t, int>> called;  // (enclosing op, module)
  struct Split {
    std::size_t op, ancestor;
    int from, to;
  };
  std::vector<Split> splits;
  std::unordered_map<std::size_t, double> inner_flops;  // by counted ancestor
  for (std::size_t i = 0; i < run.ops.size(); ++i) {
    const OpRecord& op = run.ops[i];
    auto parent = op_at.find(op.parent_op_id);
    if (op.parent_op_id == kNoId || parent == op_at.end()) continue;
    int from = module_index(run.ops[parent->second].module_id), to = module_index(op.module_id);
    if (from == to) continue;
    for (int m = to; m >= 0 && m != from; m = modules[static_cast<std::size_t>(m)].parent) {
      if (called.insert({parent->second, m}).second) calls[static_cast<std::size_t>(m)] += 1;
    }
    const auto dur = static_cast<double>(op.duration_ns);
    self_time[static_cast<std::size_t>(to)].add(iter_index(op.iteration), dur);
    self_time[static_cast<std::size_t>(from)].add(iter_index(op.iteration), -dur);
    if (op.flops_source != FlopsSource::kNested) continue;
    std::size_t a = parent->second;
    for (int guard = 0; guard < 1000 && !counts_toward_totals(run.ops[a]); ++guard) {
      auto up = op_at.find(run.ops[a].parent_op_id);
      if (up == op_at.end()) break;
      a = up->second;
    }
    if (!counts_toward_totals(run.ops[a])) continue;
    splits.push_back({i, a, from, to});
    if (from == module_index(run.ops[a].module_id)) inner_flops[a] += op.flops;
  }
  for (const Split& sp : splits) {
    const OpRecord& op = run.ops[sp.op];
    const OpRecord& anc = run.ops[sp.ancestor];
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

void RunSummary::index_paths() {
  path_index.clear();
  path_index.reserve(modules.size());
  for (std::size_t i = 0; i < modules.size(); ++i) {
    path_index.emplace(std::hash<std::string_view>{}(modules[i].path), static_cast<int>(i));
  }
}

int RunSummary::find(const std::string& path) const {
  if (!path_index.empty()) {
    auto [first, last] = path_index.equal_range(std::hash<std::string_view>{}(path));
    for (auto it = first; it != last; ++it) {
      if (modules[static_cast<std::size_t>(it->second)].path == path) return it->second;
    }
    return -1;
  }
  for (std::size_t i = 0; i < modules.size(); ++i) {
    if (modules[i].path == path) return static_cast<int>(i);
  }
  return -1;
}

void roll_up_modules(RunSummary& s, ModuleAccumulators acc, const RunData& run, const SummaryOptions& options) {
  const std::size_t n_mod = s.modules.size();
  // Inclusive rollups: children come after parents in pre-order, so walk backwards.
  std::vector<IterationSeries> incl_time = acc.self_time, incl_gpu = acc.gpu_time;
  for (std::size_t i = 0; i < n_mod; ++i) s.modules[i].inclusive = s.modules[i].self;
  for (std::size_t i = n_mod; i-- > 1;) {
    auto p = static_cast<std::size_t>(s.modules[i].parent);
    add_cost(s.modules[p].inclusive, s.modules[i].inclusive);
    acc.comm[p] += acc.comm[i];
    acc.unknown_gpu[p] += acc.unknown_gpu[i];
    acc.unknown_host[p] += acc.unknown_host[i];
    acc.gap_in_module[p] = static_cast<char>(acc.gap_in_module[p] | acc.gap_in_module[i]);
    // Module i's subtree is complete here (descendants come after it): compact it before passing it up.
    incl_time[i].normalise();
    incl_gpu[i].normalise();
    incl_time[p].add(incl_time[i]);
    incl_gpu[p].add(incl_gpu[i]);
  }
  const double per_iter = 1.0 / static_cast<double>(s.iterations);
  for (std::size_t i = 0; i < n_mod; ++i) {
    auto& m = s.modules[i];
    scale_cost(m.self, per_iter);
    scale_cost(m.inclusive, per_iter);
    m.calls = acc.calls[i] * per_iter;
    m.self_time = latency_stats(std::move(acc.self_time[i]));
    m.inclusive_time = latency_stats(std::move(incl_time[i]));
    m.gpu_time = latency_stats(std::move(incl_gpu[i]));
    m.gpu_self_time = latency_stats(std::move(acc.gpu_time[i]));
    m.comm_time_ns = acc.comm[i] * per_iter;
    m.flops_complete = !acc.gap_in_module[i] && acc.unknown_gpu[i] <= 0;
    if (s.has_kernels) {
      const double all = m.gpu_time.values.sum();
      m.unknown_time_share = all > 0 ? acc.unknown_gpu[i] / all : 0;
    } else {
      const double all = m.inclusive_time.values.sum();
      m.unknown_time_share = all > 0 ? std::min(1.0, acc.unknown_host[i] / all) : 0;
    }
  }
  s.coverage.flops_complete = s.modules[0].flops_complete;
  s.total = s.modules[0].inclusive;
  s.iteration_time = s.modules[0].inclusive_time;
  s.iteration_gpu_time = s.modules[0].gpu_time;
  s.peak = options.peak ? options.peak : peak_for_device(run.info.device);
  if (s.peak && s.has_kernels) {
    s.roofline = roofline(s.total.flops, s.total.bytes(), s.iteration_gpu_time.p50, *s.peak);
  }
  for (auto& m : s.modules) {
    if (s.has_kernels) m.rates = device_rates(m.inclusive.flops, m.inclusive.bytes(), m.gpu_time.mean, s.peak);
    m.share_flops = s.total.flops > 0 ? m.inclusive.flops / s.total.flops : 0;
    double mine = inclusive_time(m, run_clock(s)).p50;
    double all = iteration_time(s, run_clock(s)).p50;
    m.share_time = all > 0 ? mine / all : 0;
  }
}

SummaryFacts summary_facts(const RunData& run) {
  // A scratch summary holds the module tree and its self costs while the rows are walked.
  RunSummary s;
  const std::optional<TensorPipeFactor> factor = tensor_pipe_factor(run.info.device);
  const double tensor_factor = factor ? factor->flops_per_instruction : 0;
  std::unordered_map<Id, int> index_of;
  s.modules = build_module_tree(run, index_of);
  const std::size_t n_mod = s.modules.size();
  auto module_index = [&](Id id) {
    auto it = index_of.find(id);
    return it == index_of.end() ? 0 : it->second;
  };

  const IterationIndex iter_index(run);
  s.iterations = iter_index.count();
  const auto n_it = static_cast<std::size_t>(s.iterations);

  ModuleAccumulators acc(n_mod, n_it);
  std::vector<IterationSeries>& self_time = acc.self_time;
  std::vector<IterationSeries>& gpu_time = acc.gpu_time;
  std::vector<double>& calls = acc.calls;

  // Op index by id, for walking to outermost ancestors.
  std::unordered_map<Id, std::size_t> op_at;
  op_at.reserve(run.ops.size());
  for (std::size_t i = 0; i < run.ops.size(); ++i) op_at[run.ops[i].id] = i;
  auto outermost = [&](std::size_t i) {
    for (int guard = 0; guard < 1000 && run.ops[i].parent_op_id != kNoId; ++guard) {
      auto it = op_at.find(run.ops[i].parent_op_id);
      if (it == op_at.end()) break;
      i = it->second;
    }
    return i;
  };

  // Ops below which some op counted FLOPs (> 0): a zero-FLOP child (empty, view) covers nothing.
  std::vector<char> has_counted_below(run.ops.size(), 0);
  std::vector<double> subtree_flops(run.ops.size(), 0.0), subtree_bytes(run.ops.size(), 0.0);
  for (std::size_t i = 0; i < run.ops.size(); ++i) {
    const OpRecord& op = run.ops[i];
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
        if (run.ops[j].parent_op_id == kNoId) break;
        auto it = op_at.find(run.ops[j].parent_op_id);
        if (it == op_at.end()) break;
        j = it->second;
      }
    }
    if (op.parent_op_id == kNoId) {
      self_time[static_cast<std::size_t>(m)].add(iter_index(op.iteration), static_cast<double>(op.duration_ns));
    }
  }
  s.ops_total = static_cast<std::int64_t>(run.ops.size());
  calls = move_split_ops(run, op_at, module_index, iter_index, s.modules, self_time);

  // Calls: contiguous spans of outermost ops per module subtree, in start order per iteration.
  {
    std::vector<std::size_t> outer;
    for (std::size_t i = 0; i < run.ops.size(); ++i) {
      if (run.ops[i].parent_op_id == kNoId) outer.push_back(i);
    }
    std::sort(outer.begin(), outer.end(), [&](std::size_t a, std::size_t b) {
      const auto &x = run.ops[a], &y = run.ops[b];
      return std::tie(x.iteration, x.sequence) < std::tie(y.iteration, y.sequence);
    });
    // A module's call starts where it enters the chain of modules of the current op: chains run from the
    // root down, so the modules shared with the previous op's chain are a common prefix. O(depth) per op.
    std::vector<int> prev, chain;
    int prev_iter = 0;
    bool first = true;
    for (std::size_t i : outer) {
      if (first || run.ops[i].iteration != prev_iter) prev.clear();
      first = false;
      prev_iter = run.ops[i].iteration;
      chain.clear();
      for (int m = module_index(run.ops[i].module_id); m >= 0;
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
  const std::size_t n_ops = run.ops.size();
  std::vector<char> is_gap(n_ops, 0);
  for (std::size_t i = 0; i < n_ops; ++i) {
    is_gap[i] = run.ops[i].flops_source == FlopsSource::kNone && !has_counted_below[i];
  }
  auto parent_of = [&](std::size_t j) -> std::ptrdiff_t {
    if (run.ops[j].parent_op_id == kNoId) return -1;
    auto it = op_at.find(run.ops[j].parent_op_id);
    return it == op_at.end() ? -1 : static_cast<std::ptrdiff_t>(it->second);
  };

  // Kernels: device time, measured counters, attribution, and whether their FLOPs are known: a kernel's work
  // is counted when an op on its launch chain has a formula (or sits inside one); otherwise it is unknown
  // and charged to every gap op on the chain (or to the op that launched it).
  const std::vector<double> op_device = kernel_time_per_op(run);
  std::vector<double> gap_device(n_ops, 0.0);
  std::vector<char> launched_unknown(n_ops, 0);
  std::vector<double>&comm = acc.comm, &unknown_gpu = acc.unknown_gpu;
  double kernel_time = 0, known_kernel_time = 0, unlinked_time = 0;
  std::vector<MeasuredCounters> measured(n_mod);
  KernelCategories categories;
  for (const auto& k : run.kernels) {
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
    measured[static_cast<std::size_t>(m)].add(k);
    gpu_time[static_cast<std::size_t>(m)].add(iter_index(k.iteration), dur);
    // Coverage is about compute kernels: communication, copies and memsets do no FLOPs by convention.
    const KernelCategory category = categories(k);
    if (category == KernelCategory::kCommunication) comm[static_cast<std::size_t>(m)] += dur;
    if (category != KernelCategory::kCompute) continue;
    kernel_time += dur;
    if (k.has_counters &&
        k.flops_fp64 + k.flops_fp32 + k.flops_fp16 + k.tensor_pipe_inst * tensor_factor > 0) {
      // measured: known by counters
      known_kernel_time += dur;
      continue;
    }
    auto launcher = k.op_id == kNoId ? op_at.end() : op_at.find(k.op_id);
    if (launcher == op_at.end()) {
      unlinked_time += dur;
      unknown_gpu[static_cast<std::size_t>(m)] += dur;
      continue;
    }
    bool covered = false, gap_on_chain = false;
    std::ptrdiff_t j = static_cast<std::ptrdiff_t>(launcher->second);
    for (int guard = 0; guard < 1000 && j >= 0 && !covered;
         ++guard, j = parent_of(static_cast<std::size_t>(j))) {
      covered = run.ops[static_cast<std::size_t>(j)].flops_source != FlopsSource::kNone;
    }
    if (covered) {
      known_kernel_time += dur;
      continue;
    }
    unknown_gpu[static_cast<std::size_t>(m)] += dur;
    j = static_cast<std::ptrdiff_t>(launcher->second);
    for (int guard = 0; guard < 1000 && j >= 0; ++guard, j = parent_of(static_cast<std::size_t>(j))) {
      auto u = static_cast<std::size_t>(j);
      if (is_gap[u]) {
        gap_device[u] += dur;
        gap_on_chain = true;
      }
    }
    if (!gap_on_chain) {
      gap_device[launcher->second] += dur;
      launched_unknown[launcher->second] = 1;
    }
  }
  s.timeline = timeline_facts(run.kernels);

  // Host time: known under the outermost ops with a formula; unknown under the outermost gap ops.
  std::vector<double>& unknown_host = acc.unknown_host;
  std::vector<char>& gap_in_module = acc.gap_in_module;
  double outer_time = 0, known_host_time = 0;
  for (std::size_t i = 0; i < n_ops; ++i) {
    const auto& op = run.ops[i];
    auto p = parent_of(i);
    const auto dur = static_cast<double>(op.duration_ns);
    if (p < 0) outer_time += dur;
    bool parent_known = p >= 0 && run.ops[static_cast<std::size_t>(p)].flops_source != FlopsSource::kNone;
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
    for (std::size_t i = 0; i < run.ops.size(); ++i) {
      const auto& op = run.ops[i];
      if (op.parent_op_id != kNoId) continue;
      int m = module_index(op.module_id);
      auto& g = groups[{op.name, m}];
      g.name = op.name;
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
    for (std::size_t i = 0; i < run.ops.size(); ++i) {
      const auto& op = run.ops[i];
      if (!is_gap[i] && !launched_unknown[i]) continue;
      auto& g = gaps[op.name];
      g.name = op.name;
      g.count += 1;
      g.time_ns += static_cast<double>(op.duration_ns);
      g.device_time_ns += gap_device[i];
      if (g.note.empty()) g.note = op.flops_note;
    }
    f.gaps.reserve(gaps.size());
    for (auto& [name, g] : gaps) f.gaps.push_back(std::move(g));
  }
  return f;
}

RunSummary summarize_facts(const RunData& run, const SummaryFacts& f, const SummaryOptions& options) {
  RunSummary s;
  s.info = run.info;
  s.tensor_factor = tensor_pipe_factor(run.info.device);
  const double tensor_factor = s.tensor_factor ? s.tensor_factor->flops_per_instruction : 0;
  std::unordered_map<Id, int> index_of;
  s.modules = build_module_tree(run, index_of);
  s.index_paths();
  auto module_index = [&](Id id) {
    auto it = index_of.find(id);
    return static_cast<std::size_t>(it == index_of.end() ? 0 : it->second);
  };
  const IterationIndex iter_index(run);
  s.iterations = iter_index.count();
  const auto n_it = static_cast<std::size_t>(s.iterations);
  ModuleAccumulators acc(s.modules.size(), n_it);
  for (const ModuleFacts& mf : f.modules) {
    const std::size_t m = module_index(mf.module_id);
    Cost& c = s.modules[m].self;
    c.ops += mf.ops;
    c.flops += mf.flops;
    c.macs += mf.macs;
    c.bytes_read += mf.bytes_read;
    c.bytes_written += mf.bytes_written;
    c.kernels += mf.kernels;
    add_measured(c,
                 {.flops = mf.measured_flops,
                  .dram_bytes = mf.dram_bytes,
                  .dram_read = mf.dram_read,
                  .dram_written = mf.dram_written,
                  .dram_unsplit = mf.dram_unsplit,
                  .tensor_inst = mf.tensor_inst},
                 tensor_factor);
    acc.calls[m] += mf.calls;
    acc.comm[m] += mf.comm_ns;
    acc.unknown_gpu[m] += mf.unknown_device_ns;
    acc.unknown_host[m] += mf.unknown_host_ns;
    if (mf.gap) acc.gap_in_module[m] = 1;
    // Indices past the run's iterations are refused when the facts are read (db/summary_tables).
    for (const auto& [it, v] : mf.host_ns) {
      if (it < n_it) acc.self_time[m].add(it, v);
    }
    for (const auto& [it, v] : mf.device_ns) {
      if (it < n_it) acc.gpu_time[m].add(it, v);
    }
  }
  s.has_kernels = f.has_kernels;
  s.ops_total = f.ops_total;
  s.ops_with_formula = f.ops_with_formula;
  s.orphans = {f.orphan_kernels, f.orphan_ns};
  s.attribution.kernels = f.kernels;
  s.attribution.kernels_with_op = f.kernels_with_op;
  s.attribution.kernels_with_module = f.kernels_with_module;
  s.attribution.kernel_time_ns = f.kernel_time_ns;
  s.attribution.kernel_time_attributed_ns = f.kernel_time_attributed_ns;
  s.timeline = f.timeline;
  const double kernel_time = f.compute_ns, outer_time = f.outer_host_ns;
  s.coverage.known_device_share = kernel_time > 0 ? f.known_compute_ns / kernel_time : 0;
  s.coverage.unlinked_device_share = kernel_time > 0 ? f.unlinked_compute_ns / kernel_time : 0;
  s.coverage.known_host_share = outer_time > 0 ? std::min(1.0, f.known_host_ns / outer_time) : 0;

  roll_up_modules(s, std::move(acc), run, options);
  const double per_iter = 1.0 / static_cast<double>(s.iterations);

  // Top ops, ranked by device time when the run has some, else host time, else FLOPs.
  {
    s.top_ops.reserve(f.top_ops.size());
    for (const TopOpFacts& t : f.top_ops) {
      OpSummary g;
      g.name = t.name;
      g.module_path = s.modules[module_index(t.module_id)].path;
      g.calls = t.calls * per_iter;
      g.flops = t.flops * per_iter;
      g.bytes = t.bytes * per_iter;
      g.time_ns = t.time_ns * per_iter;
      g.device_time_ns = t.device_time_ns * per_iter;
      g.flops_source = to_string(t.flops_source);
      g.rates = device_rates(g.flops, g.bytes, g.device_time_ns, s.peak);
      s.top_ops.push_back(std::move(g));
    }
    bool by_time = s.iteration_time.p50 > 0;
    bool by_device = s.has_kernels && s.iteration_gpu_time.p50 > 0;
    std::sort(s.top_ops.begin(), s.top_ops.end(),
              [by_time, by_device](const OpSummary& a, const OpSummary& b) {
                if (by_device && a.device_time_ns != b.device_time_ns)
                  return a.device_time_ns > b.device_time_ns;
                return by_time ? a.time_ns > b.time_ns : a.flops > b.flops;
              });
    if (s.top_ops.size() > options.top_ops) s.top_ops.resize(options.top_ops);
  }

  // Coverage: ops without a count and without counted work below them.
  {
    std::int64_t gap_ops = 0;
    for (const GapFacts& f_gap : f.gaps) {
      CoverageGap g;
      g.name = f_gap.name;
      g.count = f_gap.count;
      g.time_ns = f_gap.time_ns;
      g.device_time_ns = f_gap.device_time_ns;
      g.note = f_gap.note;
      g.share_of_time = outer_time > 0 ? g.time_ns / outer_time : 0;
      g.share_of_device_time = kernel_time > 0 ? g.device_time_ns / kernel_time : 0;
      gap_ops += g.count;
      s.coverage_gaps.push_back(std::move(g));
    }
    std::sort(s.coverage_gaps.begin(), s.coverage_gaps.end(), [](const CoverageGap& a, const CoverageGap& b) {
      if (a.device_time_ns != b.device_time_ns) return a.device_time_ns > b.device_time_ns;
      return a.time_ns > b.time_ns;
    });
    s.quality = run.quality;
    for (const auto& q : run.quality) {
      if (q.code == QualityCode::graph_replay_matched ||
          q.code == QualityCode::graph_replay_matched_by_order ||
          q.code == QualityCode::graph_replay_unmatched || q.code == QualityCode::graph_replay_at_launch) {
        s.attribution.kernels_from_graph_replay += q.count;
      }
    }
    if (gap_ops > 0) {
      s.quality.emplace_back(QualityCode::ops_without_flops_formula, gap_ops,
                             std::to_string(f.gaps.size()) + " distinct op names; see the coverage section");
    }
    // Orphans have no launch, hence no module; they are reported on their own below.
    const std::int64_t unattributed =
        s.attribution.kernels - s.attribution.kernels_with_module - s.orphans.kernels;
    if (s.has_kernels && unattributed > 0) {
      s.quality.emplace_back(QualityCode::kernels_without_module, unattributed,
                             "counted in the root's device time as unattributed");
    }
    if (s.orphans.kernels > 0) {
      s.quality.emplace_back(QualityCode::orphan_kernels_left_out, s.orphans.kernels,
                             "shown apart in the timeline section");
    }
  }
  return s;
}

RunSummary summarize(const RunData& run, const SummaryOptions& options) {
  if (run.raw_rows) return summarize_facts(run, summary_facts(run), options);
  if (run.summary_facts.present) return summarize_facts(run, run.summary_facts, options);
  return summarize_aggregates(run, options);
}

}  // namespace flopscope
