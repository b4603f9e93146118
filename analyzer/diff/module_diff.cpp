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
#include "analyzer/diff/gates.h"
#include "analyzer/diff/op_diff.h"
#include "analyzer/diff/weights_join.h"
#include "analyzer/totals_summary.h"
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

bool runs(const SideCost& s) {
  return s.present && (s.ops > 0 || s.kernels > 0);
}

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

// Structure and weights only: time has its own status. Wrapping, unwrapping and ambiguity are decided once
// every row exists (settle_levels, mark_ambiguous).
Verdict verdict_of(const ModuleDiff& m) {
  // Still in B's model, but it ran nothing on B's inputs: its work left, the module did not.
  if (m.status == DiffStatus::kVanished && m.b.present) return Verdict::kNotRun;
  if (m.status == DiffStatus::kVanished) return Verdict::kVanished;
  if (m.status == DiffStatus::kNew) return Verdict::kNew;
  if (runs(m.b) && (m.weights_b.state == WeightState::kZeroed || !m.discarded_by.empty()))
    return Verdict::kDormant;
  bool type_changed = m.a.present && m.b.present && m.type != m.type_b;
  if (m.status == DiffStatus::kChanged || m.weights_changed || m.weights_a.state != m.weights_b.state ||
      type_changed) {
    return Verdict::kChanged;
  }
  if (!m.path_b.empty()) return Verdict::kMoved;
  return Verdict::kUnchanged;
}

// Module paths (after the side's paths) that own a parameter directly.
std::unordered_set<std::string> own_params(const ParamIndex& idx) {
  std::unordered_set<std::string> out;
  for (const auto& name : idx.names) out.insert(std::string(path_parent(name)));
  return out;
}

bool at_or_below(const std::string& path, const std::string& root) {
  return path == root || root.empty() ||
         (path.size() > root.size() && path.compare(0, root.size(), root) == 0 && path[root.size()] == '.');
}

// A module on one side only that is a level and nothing more: no parameters and no work of its own, with
// modules below it (in the real tree) that the other side has (UNWRAPPED in A, WRAPPED in B). Or one whose
// every parameter the other side holds elsewhere, with the module holding them running there (a LoRA
// base_layer merged into its parent, a plain layer wrapped into a base_layer).
void settle_levels(RunDiff& d, const RunSummary& sa, const RunSummary& sb,
                   const std::unordered_set<std::string>& own_a,
                   const std::unordered_set<std::string>& own_b) {
  std::vector<int> row_a(sa.modules.size(), -1), row_b(sb.modules.size(), -1);
  for (std::size_t r = 0; r < d.modules.size(); ++r) {
    const ModuleDiff& m = d.modules[r];
    if (m.summary_a >= 0) row_a[static_cast<std::size_t>(m.summary_a)] = static_cast<int>(r);
    if (m.summary_b >= 0) row_b[static_cast<std::size_t>(m.summary_b)] = static_cast<int>(r);
  }
  std::unordered_map<std::string, const ModuleDiff*> by_b_path;  // B's own path (after its maps) -> row
  for (const auto& m : d.modules) {
    if (m.b.present) by_b_path.emplace(m.path_b.empty() ? m.path : m.path_b, &m);
  }
  std::unordered_map<std::string, const ModuleDiff*> by_a_path;
  for (const auto& m : d.modules) {
    if (m.a.present) by_a_path.emplace(m.path, &m);
  }
  // Whether some module below summary module `i` is on the other side too.
  auto any_kept_below = [&](const RunSummary& s, const std::vector<int>& rows, std::size_t i, bool in_a) {
    std::vector<int> stack(s.modules[i].children);
    while (!stack.empty()) {
      const auto c = static_cast<std::size_t>(stack.back());
      stack.pop_back();
      const int r = rows[c];
      if (r >= 0 && (in_a ? d.modules[static_cast<std::size_t>(r)].b.present
                          : d.modules[static_cast<std::size_t>(r)].a.present)) {
        return true;
      }
      stack.insert(stack.end(), s.modules[c].children.begin(), s.modules[c].children.end());
    }
    return false;
  };
  // One side's rule: `in_a` asks of an A-only row (UNWRAPPED), otherwise of a B-only row (WRAPPED).
  auto is_level = [&](const ModuleDiff& m, bool in_a) {
    const RunSummary& s = in_a ? sa : sb;
    const auto i = static_cast<std::size_t>(in_a ? m.summary_a : m.summary_b);
    // Its own ops, if any (a wrapper's dtype cast, PEFT's LlamaForCausalLM under base_model), stay in the
    // row.
    const bool level =
        (in_a ? own_a : own_b).count(m.path) == 0 && any_kept_below(s, in_a ? row_a : row_b, i, in_a);
    const auto& holders = in_a ? by_b_path : by_a_path;
    auto holder = holders.find(m.moved_to);
    // Absorbed: its weights went to the counterpart of one of its ancestors (a base_layer merged into its
    // q_proj), which runs. Weights found in a sibling's counterpart (a twin) say nothing of the kind.
    const bool absorbed = (in_a ? m.weights_b : m.weights_a).state == WeightState::kMoved &&
                          !m.moved_to.empty() && holder != holders.end() &&
                          at_or_below(m.path, holder->second->path) && holder->second->path != m.path &&
                          runs(in_a ? holder->second->b : holder->second->a);
    return level || absorbed;
  };
  for (auto& m : d.modules) {
    if (m.path.empty()) continue;
    if (m.a.present && !m.b.present && m.verdict == Verdict::kVanished && is_level(m, true)) {
      m.verdict = Verdict::kUnwrapped;
    } else if (m.b.present && !m.a.present && m.verdict == Verdict::kNew && is_level(m, false)) {
      m.verdict = Verdict::kWrapped;
    }
  }
}

// Rows the module matching could not decide, and everything below them: AMBIGUOUS, never proof.
void mark_ambiguous(RunDiff& d) {
  for (std::size_t g = 0; g < d.ambiguous_groups.size(); ++g) {
    const AmbiguousGroup& group = d.ambiguous_groups[g];
    for (auto& m : d.modules) {
      bool hit = false;
      if (m.a.present) {
        for (const auto& p : group.a_paths) hit = hit || at_or_below(m.path, p);
      }
      if (m.b.present) {
        const std::string& own = m.path_b.empty() ? m.path : m.path_b;
        for (const auto& p : group.b_paths) hit = hit || at_or_below(own, p);
      }
      if (!hit || m.ambiguous_group >= 0) continue;
      m.ambiguous_group = static_cast<int>(g);
      m.verdict = Verdict::kAmbiguous;
    }
  }
}

// Runs measured under different conditions: their times compare those conditions as much as the models.
void condition_warnings(const RunData& a, const RunData& b, const RunSummary& sa, const RunSummary& sb,
                        std::vector<std::string>& warnings) {
  if (sa.has_kernels != sb.has_kernels) {
    warnings.push_back("only one run has GPU kernels: times compare host op time");
  }
  auto differ = [&](const char* what, const std::string& x, const std::string& y) {
    if (!x.empty() && !y.empty() && x != y) {
      warnings.push_back(std::string("A and B differ in ") + what + ": '" + x + "' vs '" + y +
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
}

// The run totals and the end-to-end time test between runs: over per-process medians, or not assessable
// (compare_time). Returns which process ran each iteration, for the per-row tests.
ProcessSplit compare_totals(RunDiff& d, const RunData& a, const RunSummary& sa, const RunData& b,
                            const RunSummary& sb, const DiffOptions& options) {
  const Clock clock = time_clock(d);
  d.a = totals(sa, a, clock);
  d.b = totals(sb, b, clock);
  d.outputs = compare_outputs(a.outputs, b.outputs);
  ProcessSplit processes = process_split(a, b);
  d.a.processes = processes.a.count;
  d.b.processes = processes.b.count;
  d.time_diff = compare_time(d.a.time, d.b.time, options, processes, &d.time_significant);
  d.time_status = time_status_of(d.a.time, d.b.time, d.time_diff, d.time_significant);
  if (d.time_status == TimeStatus::kSingleSample) {
    d.warnings.push_back(
        "a run has a single iteration: time differences are single samples with no interval, not tested for "
        "significance");
  } else if (d.a.time.samples < kMinIterationsForStats || d.b.time.samples < kMinIterationsForStats) {
    d.warnings.push_back("fewer than " + std::to_string(kMinIterationsForStats) +
                         " iterations in a run: time differences are not tested for significance");
  } else if (!processes.assessable()) {
    d.warnings.push_back(not_assessable_warning(processes));
  }
  return processes;
}

// Renamed modules (not renumbered children) that the matching found by their weights and work: say so, and
// how a --map would state it.
void rename_warnings(const DiffPaths& sides, std::vector<std::string>& warnings) {
  for (const auto& [from, to] : sides.matches.renames) {
    const std::string_view lf = path_leaf(from), lt = path_leaf(to);
    const bool number = !lf.empty() && lf.find_first_not_of("0123456789") == std::string::npos;
    if (lf == lt || number || to.ends_with("@B")) continue;
    warnings.push_back("B's " + from + " was paired with A's " + to +
                       " by its weights and work (the paths differ); --map-b '^" + from + "(\\.|$)=" + to +
                       "$1' states it, --explain " + to + " shows the evidence");
  }
}

// Modules whose ops a run could not attribute exactly (data quality), as paths after the maps.
void ambiguous_attribution(RunDiff& d, const RunData& a, const SidePaths& paths_a, const RunData& b,
                           const SidePaths& paths_b) {
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
}

// The parameters of both runs joined by name, and what moved: A's parameters found in B by content under
// another name, counted per A module (and per B module, B's parameters that came that way from A).
struct JoinedWeights {
  ParamIndex a, b;
  std::unordered_map<std::string, bool> changed;  // module path -> a parameter below it changed
  std::unordered_map<std::string, std::int64_t> moved_out, moved_in;
  std::unordered_map<std::string, std::string> moved_out_to, moved_in_from;  // module -> the other side's
};

JoinedWeights join_weights(RunDiff& d, const RunData& a, const SidePaths& paths_a, const RunData& b,
                           const SidePaths& paths_b, double atol) {
  JoinedWeights w;
  w.a = index_params(a, paths_a, atol);
  w.b = index_params(b, paths_b, atol);
  d.params = join_params(w.a, w.b, atol, &w.changed);
  // The module that owns a parameter: its name's parent path.
  auto owner_of = [](const std::string& name) { return std::string(path_parent(name)); };
  std::int64_t moved_without_map = 0;
  for (const auto& p : d.params) {
    if (!p.moved_to.empty() && p.state_b == WeightState::kNone) {
      for_each_owner(p.name, [&](const std::string& owner) { ++w.moved_out[owner]; });
      w.moved_out_to.emplace(owner_of(p.name), owner_of(p.moved_to));
      if (owner_of(p.name) != owner_of(p.moved_to)) ++moved_without_map;
    }
    if (!p.moved_from.empty() && p.state_a == WeightState::kNone) {
      for_each_owner(p.name, [&](const std::string& owner) { ++w.moved_in[owner]; });
      w.moved_in_from.emplace(owner_of(p.name), owner_of(p.moved_from));
    }
  }
  if (moved_without_map > 0) {
    d.warnings.push_back(
        std::to_string(moved_without_map) +
        " tensors of A are in B under another name (same or similar content): they MOVED, they "
        "were not erased; --map 'REGEX=REPLACEMENT' names the new paths if modules were renamed");
  }
  return w;
}

// One row per module path after the maps and alignment: A's modules in A's pre-order, then B's own.
class ModuleRows {
 public:
  ModuleRows(RunDiff& d, const RunData& b, const RunSummary& sa, const RunSummary& sb, const DiffPaths& sides,
             const JoinedWeights& weights, const DiffOptions& options, const ProcessSplit& processes)
      : d_(d), sa_(sa), sb_(sb), sides_(sides), w_(weights), options_(options), processes_(processes) {
    // Each module's path after the maps and alignment, computed once per side.
    path_in_a_.resize(sa.modules.size());
    path_in_b_.resize(sb.modules.size());
    b_path_before_alignment_.resize(sb.modules.size());
    for (std::size_t i = 0; i < sa.modules.size(); ++i) path_in_a_[i] = sides.a(sa.modules[i].path);
    in_b_.reserve(sb.modules.size());
    for (std::size_t i = 0; i < sb.modules.size(); ++i) {
      path_in_b_[i] = sides.b(sb.modules[i].path);
      in_b_.emplace(path_in_b_[i], static_cast<int>(i));
      b_path_before_alignment_[i] = apply_path_maps(sides.b.maps, sb.modules[i].path);
    }
    // B's modules that run only to be multiplied by zero, by B's own path.
    for (auto& dm : find_discarded(b, sb).modules)
      discarded_in_b_.emplace(std::move(dm.path), std::move(dm.zero_factor));
    // Modules in both runs: one time test each, so each interval is at the Bonferroni level for all of
    // them.
    for (const auto& path : path_in_a_) time_tests_ += in_b_.count(path) > 0 ? 1 : 0;
  }

  void add_all() {
    std::unordered_set<std::string_view> seen_a;
    seen_a.reserve(sa_.modules.size());
    d_.modules.reserve(sa_.modules.size() + sb_.modules.size());
    for (std::size_t i = 0; i < sa_.modules.size(); ++i) {
      const std::string& path = path_in_a_[i];
      if (!seen_a.insert(path).second) {
        d_.warnings.push_back("module path '" + path +
                              "' occurs twice in A after --map; the second is ignored");
        continue;
      }
      auto it = in_b_.find(path);
      add(&sa_.modules[i], it == in_b_.end() ? nullptr : &sb_.modules[static_cast<std::size_t>(it->second)],
          path);
    }
    for (std::size_t i = 0; i < sb_.modules.size(); ++i) {
      const std::string& path = path_in_b_[i];
      if (!seen_a.insert(path).second) continue;
      add(nullptr, &sb_.modules[i], path);
    }
  }

 private:
  // Structure (and, for modules in both runs, the time test) of one row.
  void compare(ModuleDiff& m, bool in_a, bool in_b) const {
    const bool vanished = !in_b || (in_a && runs(m.a) && !runs(m.b));  // gone, or no longer running
    const bool added = !in_a || (!runs(m.a) && runs(m.b));             // new, or running only now
    if (vanished && in_a)
      m.status = DiffStatus::kVanished;
    else if (added)
      m.status = DiffStatus::kNew;
    else {
      m.time_diff = compare_time(m.a.time, m.b.time, options_, processes_, &m.time_significant, time_tests_);
      m.time_status = time_status_of(m.a.time, m.b.time, m.time_diff, m.time_significant);
      m.status = costs_differ(m.a, m.b, options_) ? DiffStatus::kChanged : DiffStatus::kUnchanged;
    }
    if (m.status == DiffStatus::kVanished || m.status == DiffStatus::kNew) {
      m.time_diff.median_a = m.a.time.p50;
      m.time_diff.median_b = m.b.time.p50;
      m.time_diff.diff = m.b.time.p50 - m.a.time.p50;
      m.time_diff.ci_low = m.time_diff.ci_high = std::nan("");
    }
  }

  // The row's parameters on both sides. Parameters that were there and are gone: erased, unless the other
  // side holds every one of them under another name (then `moved_to` names the module holding them).
  void weigh(ModuleDiff& m) const {
    auto weights_of = [](const ParamIndex& idx, const std::string& path) {
      auto it = idx.by_module.find(path);
      return it == idx.by_module.end() ? WeightSide{} : it->second;
    };
    m.weights_a = weights_of(w_.a, m.path);
    m.weights_b = weights_of(w_.b, m.path);
    auto gone = [&](WeightSide& side, std::int64_t params,
                    const std::unordered_map<std::string, std::int64_t>& found,
                    const std::unordered_map<std::string, std::string>& holder) {
      auto moved = found.find(m.path);
      side.moved = moved == found.end() ? 0 : moved->second;
      side.state = side.moved >= params ? WeightState::kMoved : WeightState::kErased;
      if (side.state == WeightState::kMoved) {
        auto h = holder.find(m.path);
        m.moved_to = h == holder.end() ? "" : h->second;
      }
    };
    if (m.weights_a.params > 0 && m.weights_b.params == 0)
      gone(m.weights_b, m.weights_a.params, w_.moved_out, w_.moved_out_to);
    if (m.weights_b.params > 0 && m.weights_a.params == 0)
      gone(m.weights_a, m.weights_b.params, w_.moved_in, w_.moved_in_from);
    m.weights_changed = w_.changed.count(m.path) != 0;
  }

  void add(const ModuleSummary* ma, const ModuleSummary* mb, const std::string& path) {
    const Clock clock = time_clock(d_);
    ModuleDiff m;
    m.path = path;
    m.type = ma ? ma->type : mb->type;
    m.type_b = mb ? mb->type : "";
    m.depth = ma ? ma->depth : mb->depth;
    if (ma) m.a = module_side(*ma, clock, d_.a.time.p50);
    if (mb) m.b = module_side(*mb, clock, d_.b.time.p50);
    if (ma) m.summary_a = static_cast<int>(ma - sa_.modules.data());
    if (mb) {
      m.summary_b = static_cast<int>(mb - sb_.modules.data());
      const std::string& own = b_path_before_alignment_[static_cast<std::size_t>(m.summary_b)];
      if (!own.empty() && own != path) m.path_b = own;
    }
    compare(m, ma != nullptr, mb != nullptr);
    weigh(m);
    if (ma) {
      auto match = sides_.matches.by_a_path.find(path);
      if (match != sides_.matches.by_a_path.end()) m.match = match->second;
    }
    if (mb && runs(m.b)) {
      auto it = discarded_in_b_.find(mb->path);
      if (it != discarded_in_b_.end()) m.discarded_by = it->second;
    }
    m.verdict = verdict_of(m);
    if (m.time_status != TimeStatus::kUntested && (m.a.present && m.b.present)) {
      m.time_text = describe_time_change(m.time_diff, m.time_significant, m.time_status);
    }
    if (m.time_status == TimeStatus::kSlower) ++d_.modules_slower;
    if (m.time_status == TimeStatus::kFaster) ++d_.modules_faster;
    if (ma && mb && !path.empty()) ++d_.common_modules;
    d_.modules.push_back(std::move(m));
  }

  RunDiff& d_;
  const RunSummary &sa_, &sb_;
  const DiffPaths& sides_;
  const JoinedWeights& w_;
  const DiffOptions& options_;
  const ProcessSplit& processes_;
  std::vector<std::string> path_in_a_, path_in_b_, b_path_before_alignment_;
  std::unordered_map<std::string_view, int> in_b_;  // views of path_in_b_
  std::unordered_map<std::string, std::string> discarded_in_b_;
  int time_tests_ = 0;
};

// Each row's text and the counts by verdict, once every verdict is settled.
void verdict_texts(RunDiff& d) {
  for (auto& m : d.modules) {
    m.verdict_text = describe_verdict(m);
    if (m.verdict == Verdict::kAmbiguous) {
      m.verdict_text =
          "AMBIGUOUS: " + ambiguity_text(d.ambiguous_groups[static_cast<std::size_t>(m.ambiguous_group)]);
    }
    ++d.modules_by_verdict[static_cast<int>(m.verdict)];
  }
}

// Headlines: the roots of vanished / new / dormant / moved subtrees.
void mark_headlines(RunDiff& d) {
  std::unordered_map<std::string_view, Verdict> verdict_at;  // views of d.modules, complete by now
  verdict_at.reserve(d.modules.size());
  for (const auto& m : d.modules) verdict_at.emplace(m.path, m.verdict);
  for (auto& m : d.modules) {
    if (m.verdict != Verdict::kVanished && m.verdict != Verdict::kNew && m.verdict != Verdict::kDormant &&
        m.verdict != Verdict::kMoved && m.verdict != Verdict::kAmbiguous && m.verdict != Verdict::kNotRun) {
      continue;
    }
    if (m.path.empty()) continue;
    auto it = verdict_at.find(path_parent(m.path));
    m.headline = it == verdict_at.end() || it->second != m.verdict;
  }
}

}  // namespace

RunDiff diff_runs(const RunData& a, const RunData& b, const DiffOptions& options) {
  // The two summaries are independent: B's is made by a second thread. Totals only: a diff compares every op
  // signature from the aggregates instead of a top-op list.
  const SummaryOptions summary_options = totals_summary_options();
  auto summary_b = std::async(std::launch::async, [&] { return summarize(b, summary_options); });
  std::future<void> freeing_b;  // joined after A's summary is freed by this thread meanwhile
  const RunSummary sa = summarize(a, summary_options);
  RunSummary sb = summary_b.get();
  RunDiff d = diff_runs(a, sa, b, sb, options);
  freeing_b = std::async(std::launch::async,
                         [gone = std::move(sb)]() mutable { RunSummary freed = std::move(gone); });
  return d;
}

RunDiff diff_runs(const RunData& a, const RunSummary& sa, const RunData& b, const RunSummary& sb,
                  const DiffOptions& options) {
  RunDiff d;
  d.info_a = a.info;
  d.info_b = b.info;
  // Device time only when both runs have it: one clock on both sides.
  d.gpu_time = run_clock(sa) == Clock::kDevice && run_clock(sb) == Clock::kDevice;
  condition_warnings(a, b, sa, sb, d.warnings);
  const ProcessSplit processes = compare_totals(d, a, sa, b, sb, options);

  const DiffPaths sides = diff_paths(a, b, options, &sa, &sb);
  d.warnings.insert(d.warnings.end(), sides.matches.warnings.begin(), sides.matches.warnings.end());
  d.ambiguous_groups = sides.matches.ambiguous;
  rename_warnings(sides, d.warnings);
  d.maps.insert(d.maps.end(), sides.recorded.begin(), sides.recorded.end());
  // The op signatures need only the paths and the totals: diffed by a second thread while this one does
  // the modules (the totals are read, never written, from here on).
  auto op_rows = std::async(std::launch::async, [&] {
    return diff_ops(a, sides.a, b, sides.b, options, processes, d.gpu_time, d.a, d.b);
  });
  ambiguous_attribution(d, a, sides.a, b, sides.b);
  const JoinedWeights weights = join_weights(d, a, sides.a, b, sides.b, options.atol);

  ModuleRows(d, b, sa, sb, sides, weights, options, processes).add_all();
  settle_levels(d, sa, sb, own_params(weights.a), own_params(weights.b));
  mark_ambiguous(d);
  verdict_texts(d);
  mark_headlines(d);
  if (sa.modules.size() > 1 && sb.modules.size() > 1 && d.common_modules == 0) {
    d.warnings.push_back(
        "A and B have no module in common: are they versions of the same model? "
        "(use --map 'REGEX=REPLACEMENT' to align renamed module paths)");
  }

  d.ops = op_rows.get();
  for (const auto& o : d.ops) ++d.ops_by_status[static_cast<int>(o.status)];
  d.categories = summarize_categories(d.ops, d.gpu_time);
  d.sentence = summary_sentence(d);
  return d;
}

}  // namespace flopscope
