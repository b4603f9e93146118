#include "analyzer/diff/summary_sentence.h"

#include <fmt/format.h>

#include <cmath>
#include <map>
#include <utility>

#include "analyzer/diff/between_runs.h"
#include "analyzer/diff/compare.h"
#include "analyzer/diff/diff.h"
#include "analyzer/diff/units.h"
#include "analyzer/outputs/output_verdict.h"
#include "db/model/module_path.h"

namespace flopscope {
namespace {

// Modules with the same verdict, name (last path component) and weights: "2 x position_adaptive_bias".
struct Group {
  Verdict verdict;
  std::string leaf;
  std::string qualifier;  // "weights ERASED", "output multiplied by zero", ""
  std::vector<const ModuleDiff*> members;
};

std::string leaf_of(const std::string& path) {
  return std::string(path_leaf(path));
}

std::string qualifier_of(const ModuleDiff& m) {
  if (m.verdict == Verdict::kDormant) {
    return m.weights_b.state == WeightState::kZeroed ? "weights ZEROED" : "output multiplied by zero";
  }
  // What B holds: ERASED for a vanished module whose parameters are gone, ACTIVE for a new one.
  const WeightState w = m.weights_b.state;
  return w == WeightState::kNone ? "" : std::string("weights ") + to_string(w);
}

std::string signed_text(double v, std::string (*fmt_value)(double)) {
  return (v > 0 ? "+" : "") + fmt_value(v);
}

// Whose cost a group's numbers are: the removed modules' in A, the added ones' in B, the dormant ones' in
// B. The label keeps a reader from quoting it as the measured saving, which is the end-to-end change.
std::string cost_label(const Group& g) {
  const bool one = g.members.size() == 1;
  switch (g.verdict) {
    case Verdict::kVanished:
      return one ? "cost in A of the removed module" : "cost in A of the removed modules";
    case Verdict::kNotRun:
      return one ? "cost in A of the module B no longer runs" : "cost in A of the modules B no longer runs";
    case Verdict::kNew:
      return one ? "cost in B of the added module" : "cost in B of the added modules";
    default:
      return one ? "wasted in B by the dormant module" : "wasted in B by the dormant modules";
  }
}

// What the group costs per iteration on the side where it runs (unsigned: a cost, not a change).
std::string cost_text(const Group& g, bool gpu_time) {
  if (g.verdict == Verdict::kAmbiguous) return "which module of B each is, the evidence does not decide";
  double flops = 0, bytes = 0, time = 0;
  bool timed = true;
  for (const ModuleDiff* m : g.members) {
    const bool left = g.verdict == Verdict::kVanished || g.verdict == Verdict::kNotRun;
    const SideCost& s = left ? m->a : m->b;
    flops += s.flops;
    bytes += s.bytes;
    time += s.time.p50;
    timed = timed && s.time.samples > 0;
  }
  std::string out = cost_label(g) + ": " + flops_text(flops) + ", " + bytes_text(bytes);
  if (timed)
    return out + fmt::format(", {} per iteration ({} time)", time_text(time), gpu_time ? "device" : "host");
  return out + " per iteration";
}

std::string relative_text(const char* what, double a, double b, std::string (*fmt_value)(double)) {
  if (a == b) return std::string(what) + " unchanged";
  if (a == 0) return fmt::format("{} {} -> {}", what, fmt_value(a), fmt_value(b));
  return std::string(what) + " " + format_signed_percent((b - a) / a);
}

// "-414 ms [95% CI -496 ms, -332 ms], significant (faster)" or "..., not significant".
std::string measured_time_text(const MedianDifference& t, bool significant) {
  auto signed_time = [](double v) { return (v < 0 ? "-" : "+") + time_text(std::fabs(v)); };
  std::string out = signed_time(t.diff);
  // One of `family` intervals: each is wider, so that all of them hold together with 95%.
  const std::string level = t.family > 1 ? fmt::format("95% CI jointly over {} tests", t.family) : "95% CI";
  out += fmt::format(" [{} {}, {}]", level, signed_time(t.ci_low), signed_time(t.ci_high));
  if (!significant) return out + ", not significant";
  return out + (t.diff < 0 ? ", significant (faster)" : ", significant (slower)");
}

std::string end_to_end_text(const RunDiff& d) {
  std::string out =
      "measured end-to-end change: " + relative_text("FLOPs", d.a.flops, d.b.flops, flops_text) + ", " +
      relative_text("bytes", d.a.bytes, d.b.bytes, bytes_text);
  // Counter runs (Nsight Compute) carry their work as measured FLOPs and DRAM bytes, often with no op to
  // count.
  if (d.a.measured() || d.b.measured())
    out += ", " + relative_text("measured FLOPs", d.a.measured_flops, d.b.measured_flops, flops_text) + ", " +
           relative_text("DRAM", d.a.dram_bytes, d.b.dram_bytes, bytes_text);
  if (d.a.time.samples == 0 || d.b.time.samples == 0) return out;
  out += fmt::format(", {} time ", d.gpu_time ? "device" : "host");
  const MedianDifference& t = d.time_diff;
  if (d.time_status == TimeStatus::kSingleSample)
    return out + signed_text(t.diff, time_text) + " (" + kSingleSampleText + ")";
  if (d.time_status == TimeStatus::kNotAssessable)
    return out + signed_text(t.diff, time_text) + ", " + kNotAssessableText;
  if (d.time_status == TimeStatus::kUntested) {
    return out + signed_text(t.diff, time_text) + " (fewer than " + std::to_string(kMinIterationsForStats) +
           " iterations: not tested)";
  }
  if (std::isnan(t.ci_low)) return out + signed_text(t.diff, time_text) + " (not tested)";
  return out + measured_time_text(t, d.time_significant);
}

}  // namespace

std::string SummarySentence::text() const {
  std::string out;
  for (const auto& p : parts) out += p.text;
  return out;
}

SummarySentence summary_sentence(const RunDiff& d) {
  std::vector<Group> groups;
  // A group's index by its leaf and qualifier (one verdict at a time): thousands of vanished modules with
  // distinct names make as many groups, so a search of the list per module would be quadratic.
  std::map<std::pair<std::string, std::string>, std::size_t> group_of;
  for (Verdict v :
       {Verdict::kAmbiguous, Verdict::kVanished, Verdict::kNotRun, Verdict::kDormant, Verdict::kNew}) {
    group_of.clear();
    for (const auto& m : d.modules) {
      if (!m.headline || m.verdict != v || m.path.empty()) continue;
      auto [at, added] = group_of.try_emplace({leaf_of(m.path), qualifier_of(m)}, groups.size());
      if (added) groups.push_back(Group{v, at->first.first, at->first.second, {}});
      groups[at->second].members.push_back(&m);
    }
  }
  SummarySentence s;
  auto text = [&](std::string t) { s.parts.push_back({std::move(t), false}); };
  auto module = [&](std::string t) { s.parts.push_back({std::move(t), true}); };
  if (groups.empty()) text("No module vanished, appeared or went dormant");
  for (std::size_t i = 0; i < groups.size() && i < kSentenceGroups; ++i) {
    const Group& g = groups[i];
    if (i > 0) text("; ");
    // One module: its path; several: how many, and their name.
    if (g.members.size() == 1) {
      module(g.members[0]->path);
      text(" ");
    } else {
      text(fmt::format("{} x ", g.members.size()));
      module(g.leaf);
      text(" ");
    }
    std::string verdict = to_string(g.verdict);
    if (!g.qualifier.empty()) verdict += " (" + g.qualifier + ")";
    text(verdict + ", " + cost_text(g, d.gpu_time));
  }
  if (groups.size() > kSentenceGroups) {
    std::size_t more = 0;
    for (std::size_t i = kSentenceGroups; i < groups.size(); ++i) more += groups[i].members.size();
    text(fmt::format("; {} more vanished, not run, ambiguous, dormant or new module{}", more,
                     more == 1 ? "" : "s"));
  }
  text("; " + end_to_end_text(d));
  const std::string outputs = output_verdict(d.outputs);
  if (!outputs.empty()) text("; " + outputs);
  return s;
}

}  // namespace flopscope
