#include "analyzer/summary.h"

#include <algorithm>
#include <map>
#include <string_view>
#include <unordered_map>

#include "analyzer/clock.h"
#include "analyzer/iterations.h"
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

std::vector<ModuleSummary> build_module_tree(std::span<const ModuleRecord> modules,
                                             std::unordered_map<Id, int>& index_of) {
  std::vector<ModuleSummary> out;
  out.reserve(modules.size() + 1);  // a ModuleSummary is large: never copied by a growing vector
  index_of.reserve(modules.size() + 1);
  std::unordered_map<Id, std::vector<std::size_t>> kids;
  std::size_t root = modules.size();
  for (std::size_t i = 0; i < modules.size(); ++i) {
    const auto& m = modules[i];
    if (m.parent_id == kNoId && (root == modules.size() || m.path.empty())) root = i;
  }
  for (std::size_t i = 0; i < modules.size(); ++i) {
    if (i == root) continue;
    Id parent = modules[i].parent_id;
    if (parent == kNoId && root < modules.size()) parent = modules[root].id;
    kids[parent].push_back(i);
  }
  ModuleSummary root_summary;
  if (root < modules.size()) {
    root_summary.module_id = modules[root].id;
    root_summary.type = modules[root].type;
  }
  const Id root_id = root_summary.module_id;
  out.push_back(std::move(root_summary));
  index_of[root_id] = 0;
  // Iterative pre-order walk.
  std::vector<std::pair<Id, int>> stack{{root_id, 0}};
  while (!stack.empty()) {
    auto [id, idx] = stack.back();
    stack.pop_back();
    auto it = kids.find(id);
    if (it == kids.end()) continue;
    // Push in reverse so children come out in module order.
    std::vector<std::pair<Id, int>> pending;
    for (std::size_t k : it->second) {
      const auto& m = modules[k];
      ModuleSummary s;
      s.module_id = m.id;
      s.path = m.path;
      s.type = m.type;
      s.parent = idx;
      s.depth = out[idx].depth + 1;
      out.push_back(std::move(s));
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

void roll_up_modules(RunSummary& s, ModuleAccumulators acc, const RunData& run,
                     const SummaryOptions& options) {
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
    if (s.has_kernels)
      m.rates = device_rates(m.inclusive.flops, m.inclusive.bytes(), m.gpu_time.mean, s.peak);
    m.share_flops = s.total.flops > 0 ? m.inclusive.flops / s.total.flops : 0;
    double mine = inclusive_time(m, run_clock(s)).p50;
    double all = iteration_time(s, run_clock(s)).p50;
    m.share_time = all > 0 ? mine / all : 0;
  }
}

namespace {

// A module id's index in the summary's tree; the root's for an id not in it.
struct ModuleIndex {
  std::unordered_map<Id, int> index_of;
  std::size_t operator()(Id id) const {
    auto it = index_of.find(id);
    return static_cast<std::size_t>(it == index_of.end() ? 0 : it->second);
  }
};

// Each module's own costs, calls and times per iteration from its stored facts.
void add_module_facts(RunSummary& s, const SummaryFacts& f, const ModuleIndex& module_index,
                      ModuleAccumulators& acc) {
  const double tensor_factor = s.tensor_factor ? s.tensor_factor->flops_per_instruction : 0;
  const auto n_it = static_cast<std::size_t>(s.iterations);
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
}

// The run-wide facts: kernels, attribution, timeline and coverage shares.
void take_run_facts(RunSummary& s, const SummaryFacts& f) {
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
}

// Top ops, ranked by device time when the run has some, else host time, else FLOPs.
void add_top_ops(RunSummary& s, const SummaryFacts& f, const ModuleIndex& module_index, std::size_t top_ops) {
  const double per_iter = 1.0 / static_cast<double>(s.iterations);
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
  std::sort(s.top_ops.begin(), s.top_ops.end(), [by_time, by_device](const OpSummary& a, const OpSummary& b) {
    if (by_device && a.device_time_ns != b.device_time_ns) return a.device_time_ns > b.device_time_ns;
    return by_time ? a.time_ns > b.time_ns : a.flops > b.flops;
  });
  if (s.top_ops.size() > top_ops) s.top_ops.resize(top_ops);
}

// Coverage gaps (ops without a count and without counted work below them) and the quality notes.
void add_coverage_and_quality(RunSummary& s, const SummaryFacts& f, const RunData& run) {
  const double kernel_time = f.compute_ns, outer_time = f.outer_host_ns;
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
    if (q.code == QualityCode::graph_replay_matched || q.code == QualityCode::graph_replay_matched_by_order ||
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

}  // namespace

RunSummary summarize_facts(const RunData& run, const SummaryFacts& f, const SummaryOptions& options) {
  RunSummary s;
  s.info = run.info;
  s.tensor_factor = tensor_pipe_factor(run.info.device);
  ModuleIndex module_index;
  s.modules = build_module_tree(run.modules, module_index.index_of);
  s.index_paths();
  s.iterations = IterationIndex(run).count();
  ModuleAccumulators acc(s.modules.size(), static_cast<std::size_t>(s.iterations));
  add_module_facts(s, f, module_index, acc);
  take_run_facts(s, f);
  roll_up_modules(s, std::move(acc), run, options);
  // None asked for (diff): none made.
  if (options.top_ops > 0) add_top_ops(s, f, module_index, options.top_ops);
  add_coverage_and_quality(s, f, run);
  return s;
}

RunSummary summarize(const RunData& run, const SummaryOptions& options) {
  if (run.raw_rows) return summarize_facts(run, summary_facts(run), options);
  if (run.summary_facts.present) return summarize_facts(run, run.summary_facts, options);
  return summarize_aggregates(run, options);
}

}  // namespace flopscope
