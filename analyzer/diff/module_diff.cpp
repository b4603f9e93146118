#include <cmath>
#include <future>
#include <string_view>
#include <unordered_map>
#include <unordered_set>

#include "analyzer/activations/discarded.h"
#include "analyzer/clock.h"
#include "analyzer/diff/align.h"
#include "analyzer/diff/compare.h"
#include "analyzer/diff/diff.h"
#include "analyzer/diff/op_diff.h"
#include "analyzer/diff/weights_join.h"
#include "db/model/module_path.h"

namespace flopscope {
namespace {

// `iteration_p50`: the run's time per iteration on the same clock, for the share.
SideCost module_side(const ModuleSummary& m, Clock clock, double iteration_p50) {
  SideCost s;
  s.present = true;
  s.ops = m.inclusive.ops;
  s.kernels = m.inclusive.kernels;
  s.flops = m.inclusive.flops;
  s.bytes = m.inclusive.bytes();
  s.time = inclusive_time(m, clock);
  s.share_time = iteration_p50 > 0 ? s.time.p50 / iteration_p50 : 0;
  s.share_flops = m.share_flops;
  return s;
}

bool runs(const SideCost& s) { return s.present && (s.ops > 0 || s.kernels > 0); }

RunTotals totals(const RunSummary& s, const RunData& run, Clock clock) {
  RunTotals t;
  t.ops = s.total.ops;
  t.kernels = s.total.kernels;
  t.flops = s.total.flops;
  t.measured_flops = s.total.measured_flops + s.total.tensor_flops;
  t.dram_bytes = s.total.dram_bytes;
  t.bytes = s.total.bytes();
  t.time = iteration_time(s, clock);
  t.iterations = s.iterations;
  t.params = static_cast<std::int64_t>(run.params.size());
  for (const auto& p : run.params) t.param_bytes += p.bytes;
  return t;
}

// Structure and weights only: time has its own status.
Verdict verdict_of(const ModuleDiff& m) {
  if (m.status == DiffStatus::kVanished) return Verdict::kVanished;
  if (m.status == DiffStatus::kNew) return Verdict::kNew;
  if (runs(m.b) && (m.weights_b.state == WeightState::kZeroed || !m.discarded_by.empty())) return Verdict::kDormant;
  bool type_changed = m.a.present && m.b.present && m.type != m.type_b;
  if (m.status == DiffStatus::kChanged || m.weights_changed || m.weights_a.state != m.weights_b.state || type_changed) {
    return Verdict::kChanged;
  }
  if (!m.path_b.empty()) return Verdict::kMoved;
  return Verdict::kUnchanged;
}

}  // namespace

RunDiff diff_runs(const RunData& a, const RunData& b, const DiffOptions& options) {
  // The two summaries are independent: B's is made by a second thread. Without top ops: a diff compares every
  // op signature from the aggregates instead.
  SummaryOptions summary_options;
  summary_options.top_ops = 0;
  auto summary_b = std::async(std::launch::async, [&] { return summarize(b, summary_options); });
  std::future<void> freeing_b;  // joined after A's summary is freed by this thread meanwhile
  const RunSummary sa = summarize(a, summary_options);
  RunSummary sb = summary_b.get();
  RunDiff d = diff_runs(a, sa, b, sb, options);
  freeing_b = std::async(std::launch::async, [gone = std::move(sb)]() mutable { RunSummary freed = std::move(gone); });
  return d;
}

RunDiff diff_runs(const RunData& a, const RunSummary& sa, const RunData& b, const RunSummary& sb,
                  const DiffOptions& options) {
  RunDiff d;
  d.info_a = a.info;
  d.info_b = b.info;
  // Device time only when both runs have it: one clock on both sides.
  d.gpu_time = run_clock(sa) == Clock::kDevice && run_clock(sb) == Clock::kDevice;
  const Clock clock = time_clock(d);
  if (sa.has_kernels != sb.has_kernels) {
    d.warnings.push_back("only one run has GPU kernels: times compare host op time");
  }
  // Runs measured under different conditions: their times compare those conditions as much as the models.
  auto differ = [&](const char* what, const std::string& x, const std::string& y) {
    if (!x.empty() && !y.empty() && x != y) {
      d.warnings.push_back(std::string("A and B differ in ") + what + ": '" + x + "' vs '" + y +
                           "': time differences may come from that, not from the model");
    }
  };
  auto seed_of = [](const std::string& cmd) {
    auto at = cmd.find(" --seed ");
    return at == std::string::npos ? std::string() : cmd.substr(at + 8, cmd.find(' ', at + 8) - (at + 8));
  };
  differ("threads", a.info.threads > 0 ? std::to_string(a.info.threads) : "",
         b.info.threads > 0 ? std::to_string(b.info.threads) : "");
  differ("input spec", a.info.input_spec, b.info.input_spec);
  differ("seed", seed_of(a.info.command_line), seed_of(b.info.command_line));
  differ("tool version", a.info.tool_version, b.info.tool_version);
  differ("device", a.info.device, b.info.device);
  differ("machine", a.info.host, b.info.host);
  d.a = totals(sa, a, clock);
  d.b = totals(sb, b, clock);
  // Time between runs: over per-process medians, or not assessable (compare_time).
  const ProcessSplit processes = process_split(a, b);
  d.a.processes = processes.a.count;
  d.b.processes = processes.b.count;
  d.time_diff = compare_time(d.a.time, d.b.time, options, processes, &d.time_significant);
  d.time_status = time_status_of(d.a.time, d.b.time, d.time_diff, d.time_significant);
  if (d.a.time.samples < kMinIterationsForStats || d.b.time.samples < kMinIterationsForStats) {
    d.warnings.push_back("fewer than " + std::to_string(kMinIterationsForStats) +
                         " iterations in a run: time differences are not tested for significance");
  } else if (!processes.assessable()) {
    d.warnings.push_back(not_assessable_warning(processes));
  }

  const DiffPaths sides = diff_paths(a, b, options);
  const SidePaths& paths_a = sides.a;
  const SidePaths& paths_b = sides.b;
  d.maps.insert(d.maps.end(), sides.recorded.begin(), sides.recorded.end());
  // The op signatures need only the paths and the totals: diffed by a second thread while this one does
  // the modules (the totals are read, never written, from here on).
  auto op_rows = std::async(std::launch::async, [&] {
    return diff_ops(a, paths_a, b, paths_b, options, processes, d.gpu_time, d.a, d.b);
  });
  for (const auto& [run, paths] : {std::pair{&a, &paths_a}, std::pair{&b, &paths_b}}) {
    for (const auto& q : run->quality) {
      if (q.code != QualityCode::ambiguous_module_attribution) continue;
      std::size_t start = 0;
      while (start <= q.detail.size()) {
        std::size_t nl = q.detail.find('\n', start);
        std::string p = q.detail.substr(start, nl == std::string::npos ? std::string::npos : nl - start);
        if (!p.empty()) d.ambiguous.push_back((*paths)(p));
        if (nl == std::string::npos) break;
        start = nl + 1;
      }
      d.warnings.push_back(std::to_string(q.count) + " " + std::string(q.text()) + " in " +
                           (run == &a ? "A" : "B") + " (data quality " + std::string(q.id()) +
                           "; profile with --attribution instances)");
    }
  }
  ParamIndex pa = index_params(a, paths_a, options.atol);
  ParamIndex pb = index_params(b, paths_b, options.atol);
  std::unordered_map<std::string, bool> params_changed;
  d.params = join_params(pa, pb, options.atol, &params_changed);

  // Each module's path after the maps and alignment, computed once per side.
  std::vector<std::string> path_in_a(sa.modules.size()), path_in_b(sb.modules.size());
  for (std::size_t i = 0; i < sa.modules.size(); ++i) path_in_a[i] = paths_a(sa.modules[i].path);
  std::unordered_map<std::string_view, int> in_b;
  in_b.reserve(sb.modules.size());
  std::vector<std::string> b_path_before_alignment(sb.modules.size());
  for (std::size_t i = 0; i < sb.modules.size(); ++i) {
    path_in_b[i] = paths_b(sb.modules[i].path);
    in_b.emplace(path_in_b[i], static_cast<int>(i));
    b_path_before_alignment[i] = apply_path_maps(paths_b.maps, sb.modules[i].path);
  }
  // B's modules that run only to be multiplied by zero, by B's own path.
  std::unordered_map<std::string, std::string> discarded_in_b;
  for (auto& dm : find_discarded(b, sb).modules) discarded_in_b.emplace(std::move(dm.path), std::move(dm.zero_factor));
  std::unordered_set<std::string_view> seen_a;
  seen_a.reserve(sa.modules.size());
  auto weights_of = [](const ParamIndex& idx, const std::string& path) {
    auto it = idx.by_module.find(path);
    return it == idx.by_module.end() ? WeightSide{} : it->second;
  };
  // Modules in both runs: one time test each, so each interval is at the Bonferroni level for all of them.
  int time_tests = 0;
  for (const auto& path : path_in_a) time_tests += in_b.count(path) > 0 ? 1 : 0;
  auto add_row = [&](const ModuleSummary* ma, const ModuleSummary* mb, const std::string& path) {
    ModuleDiff m;
    m.path = path;
    m.type = ma ? ma->type : mb->type;
    m.type_b = mb ? mb->type : "";
    m.depth = ma ? ma->depth : mb->depth;
    if (ma) m.a = module_side(*ma, clock, d.a.time.p50);
    if (mb) m.b = module_side(*mb, clock, d.b.time.p50);
    if (ma) m.summary_a = static_cast<int>(ma - sa.modules.data());
    if (mb) m.summary_b = static_cast<int>(mb - sb.modules.data());
    if (mb && !b_path_before_alignment[static_cast<std::size_t>(m.summary_b)].empty() &&
        b_path_before_alignment[static_cast<std::size_t>(m.summary_b)] != path) {
      m.path_b = b_path_before_alignment[static_cast<std::size_t>(m.summary_b)];
    }
    if (!ma) m.status = DiffStatus::kNew;
    else if (!mb) m.status = DiffStatus::kVanished;
    else if (runs(m.a) && !runs(m.b)) m.status = DiffStatus::kVanished;
    else if (!runs(m.a) && runs(m.b)) m.status = DiffStatus::kNew;
    else {
      m.time_diff = compare_time(m.a.time, m.b.time, options, processes, &m.time_significant, time_tests);
      m.time_status = time_status_of(m.a.time, m.b.time, m.time_diff, m.time_significant);
      m.status = costs_differ(m.a, m.b, options) ? DiffStatus::kChanged : DiffStatus::kUnchanged;
    }
    if (m.status == DiffStatus::kVanished || m.status == DiffStatus::kNew) {
      m.time_diff.median_a = m.a.time.p50;
      m.time_diff.median_b = m.b.time.p50;
      m.time_diff.diff = m.b.time.p50 - m.a.time.p50;
      m.time_diff.ci_low = m.time_diff.ci_high = std::nan("");
    }
    m.weights_a = weights_of(pa, path);
    m.weights_b = weights_of(pb, path);
    // Parameters that were there and are gone: erased.
    if (m.weights_a.params > 0 && m.weights_b.params == 0) m.weights_b.state = WeightState::kErased;
    if (m.weights_b.params > 0 && m.weights_a.params == 0) m.weights_a.state = WeightState::kErased;
    m.weights_changed = params_changed.count(path) != 0;
    if (mb && runs(m.b)) {
      auto it = discarded_in_b.find(mb->path);
      if (it != discarded_in_b.end()) m.discarded_by = it->second;
    }
    m.verdict = verdict_of(m);
    m.verdict_text = describe_verdict(m);
    if (m.time_status != TimeStatus::kUntested && (m.a.present && m.b.present)) {
      m.time_text = describe_time_change(m.time_diff, m.time_significant);
    }
    if (m.time_status == TimeStatus::kSlower) ++d.modules_slower;
    if (m.time_status == TimeStatus::kFaster) ++d.modules_faster;
    ++d.modules_by_verdict[static_cast<int>(m.verdict)];
    if (ma && mb && !path.empty()) ++d.common_modules;
    d.modules.push_back(std::move(m));
  };
  d.modules.reserve(sa.modules.size() + sb.modules.size());
  for (std::size_t i = 0; i < sa.modules.size(); ++i) {
    const ModuleSummary& ma = sa.modules[i];
    const std::string& path = path_in_a[i];
    if (!seen_a.insert(path).second) {
      d.warnings.push_back("module path '" + path + "' occurs twice in A after --map; the second is ignored");
      continue;
    }
    auto it = in_b.find(path);
    add_row(&ma, it == in_b.end() ? nullptr : &sb.modules[static_cast<std::size_t>(it->second)], path);
  }
  for (std::size_t i = 0; i < sb.modules.size(); ++i) {
    const std::string& path = path_in_b[i];
    if (!seen_a.insert(path).second) continue;
    add_row(nullptr, &sb.modules[i], path);
  }
  // Headlines: the roots of vanished / new / dormant / moved subtrees.
  std::unordered_map<std::string_view, Verdict> verdict_at;  // views of d.modules, complete by now
  verdict_at.reserve(d.modules.size());
  for (const auto& m : d.modules) verdict_at.emplace(m.path, m.verdict);
  for (auto& m : d.modules) {
    if (m.verdict != Verdict::kVanished && m.verdict != Verdict::kNew && m.verdict != Verdict::kDormant &&
        m.verdict != Verdict::kMoved) {
      continue;
    }
    if (m.path.empty()) continue;
    auto dot = m.path.rfind('.');
    std::string_view parent = dot == std::string::npos ? std::string_view() : std::string_view(m.path).substr(0, dot);
    auto it = verdict_at.find(parent);
    m.headline = it == verdict_at.end() || it->second != m.verdict;
  }
  bool a_has = sa.modules.size() > 1, b_has = sb.modules.size() > 1;
  if (a_has && b_has && d.common_modules == 0) {
    d.warnings.push_back("A and B have no module in common: are they versions of the same model? "
                         "(use --map 'REGEX=REPLACEMENT' to align renamed module paths)");
  }

  d.ops = op_rows.get();
  for (const auto& o : d.ops) ++d.ops_by_status[static_cast<int>(o.status)];
  d.sentence = summary_sentence(d);
  return d;
}

}  // namespace flopscope
