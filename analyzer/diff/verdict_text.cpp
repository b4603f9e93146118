// The wording of the diff's verdicts: one owner, so the CLI reports and the GUI print the same lines.
#include <fmt/format.h>

#include <cmath>

#include "analyzer/diff/between_runs.h"
#include "analyzer/diff/diff.h"
#include "analyzer/diff/units.h"
#include "analyzer/work_text.h"

namespace flopscope {
namespace {

// "64 op calls, 2 kernels, 1.80 GFLOPs, 12.0 MB, 0.900 ms P50, 12.3% of time" (per iteration)
std::string cost_text(const SideCost& s) {
  std::string out = op_calls_text(s.ops);
  if (s.kernels > 0) out += ", " + format_count(s.kernels) + " kernels";
  out += ", " + flops_text(s.flops) + ", " + bytes_text(s.bytes);
  if (s.time.samples > 0) out += ", " + time_text(s.time.p50) + " P50";
  if (s.share_time > 0) out += ", " + percent_text(s.share_time) + " of time";
  return out;
}

std::string weights_text(const WeightSide& a, const WeightSide& b, bool changed) {
  switch (b.state) {
    case WeightState::kNone:
      return "";
    case WeightState::kMoved:
      return fmt::format("weights MOVED ({}, each found in B under another name)",
                         count_of(a.params, "param"));
    case WeightState::kErased:
      return a.params > 0 ? fmt::format("weights ERASED ({}, {} in A)", count_of(a.params, "param"),
                                        bytes_text(static_cast<double>(a.bytes)))
                          : "weights ERASED";
    case WeightState::kZeroed:
      return fmt::format("weights ZEROED ({}, {})", count_of(b.params, "param"),
                         bytes_text(static_cast<double>(b.bytes)));
    case WeightState::kActive:
      // "values changed" only when there were values in A to compare with.
      return fmt::format("weights ACTIVE ({}, {}{})", count_of(b.params, "param"),
                         bytes_text(static_cast<double>(b.bytes)),
                         changed && a.params > 0 ? ", values changed" : "");
  }
  return "";
}

std::string change(const char* what, double a, double b, std::string (*fmt_value)(double)) {
  if (a == b) return "";
  std::string rel = a != 0 ? " (" + format_signed_percent((b - a) / a) + ")" : "";
  return fmt::format("{} {} -> {}{}", what, fmt_value(a), fmt_value(b), rel);
}

std::string count_text(double n) {
  return format_count(n);
}

std::string structural_changes(const ModuleDiff& m) {
  std::vector<std::string> parts;
  if (m.status == DiffStatus::kChanged) {
    for (const auto& s : {change("op calls", m.a.ops, m.b.ops, count_text),
                          change("kernels", m.a.kernels, m.b.kernels, count_text),
                          change("FLOPs", m.a.flops, m.b.flops, flops_text),
                          change("bytes", m.a.bytes, m.b.bytes, bytes_text)}) {
      if (!s.empty()) parts.push_back(s);
    }
  }
  if (!m.type_b.empty() && m.type_b != m.type) parts.push_back("type " + m.type + " -> " + m.type_b);
  std::string out;
  for (std::size_t i = 0; i < parts.size(); ++i) out += (i ? ", " : "") + parts[i];
  return out;
}

}  // namespace

std::string describe_time_change(const MedianDifference& t, bool significant) {
  std::string sign = t.diff >= 0 ? "+" : "-";
  std::string out = sign + time_text(std::fabs(t.diff));
  if (!t.assessable) return out + " (" + kNotAssessableText + ")";
  if (t.diff == 0 && std::isnan(t.ci_low)) return "no change";
  if (std::isnan(t.ci_low)) return out + " (not tested)";
  // One of `family` intervals: each is wider, so that all of them hold together with 95%.
  const std::string level = t.family > 1 ? fmt::format("95% CI jointly over {} tests", t.family) : "95% CI";
  out += fmt::format(" ({} [{}{}, {}{}])", level, t.ci_low < 0 ? "-" : "+", time_text(std::fabs(t.ci_low)),
                     t.ci_high < 0 ? "-" : "+", time_text(std::fabs(t.ci_high)));
  if (!significant) return out + ", not significant";
  return out + (t.diff < 0 ? ", faster" : ", slower");
}

std::string describe_time_change(const MedianDifference& t, bool significant, TimeStatus status) {
  if (status != TimeStatus::kSingleSample) return describe_time_change(t, significant);
  return (t.diff >= 0 ? "+" : "-") + time_text(std::fabs(t.diff)) + " (" + kSingleSampleText + ")";
}

namespace {

// A wrapper level's row holds its subtree's cost, which the rows below it carry already: not its own.
constexpr const char* kLevelNote = " (its subtree's work is counted in the matched modules below)";

}  // namespace

std::string describe_verdict(const ModuleDiff& m) {
  std::string w = weights_text(m.weights_a, m.weights_b, m.weights_changed);
  auto with_weights = [&](const std::string& s) { return w.empty() ? s : s + "; " + w; };
  switch (m.verdict) {
    case Verdict::kVanished:
      return with_weights(
          fmt::format("VANISHED: {} (A: {})", m.b.present ? "no ops in B" : "not in B", cost_text(m.a)));
    case Verdict::kNew:
      return with_weights(
          fmt::format("NEW: {} (B: {})", m.a.present ? "no ops in A" : "not in A", cost_text(m.b)));
    case Verdict::kDormant:
      return fmt::format("DORMANT: {} but compute still runs (wastes per iteration: {})",
                         m.weights_b.state == WeightState::kZeroed
                             ? "weights ZEROED (" + count_of(m.weights_b.params, "param") + ")"
                             : fmt::format("its result is multiplied by zero ({} = 0)", m.discarded_by),
                         cost_text(m.b));
    case Verdict::kNotRun:
      return with_weights(
          fmt::format("NOT_RUN: still in B's model, but ran no op on B's inputs (A: {})", cost_text(m.a)));
    case Verdict::kUnwrapped:
      return m.moved_to.empty() || m.weights_b.state != WeightState::kMoved
                 ? std::string("UNWRAPPED: a level gone from B; the modules below it are in B") + kLevelNote
                 : fmt::format("UNWRAPPED: its weights and work are in B's {} now",
                               m.moved_to.empty() ? "root" : m.moved_to);
    case Verdict::kWrapped:
      return m.moved_to.empty() || m.weights_a.state != WeightState::kMoved
                 ? std::string("WRAPPED: a new level in B around modules of A") + kLevelNote
                 : fmt::format("WRAPPED: holds the weights and work of A's {}",
                               m.moved_to.empty() ? "root" : m.moved_to);
    case Verdict::kAmbiguous:
      return "AMBIGUOUS: the evidence does not decide which module of B this is (see the diff's ambiguity "
             "notes)";
    case Verdict::kMoved:
      return fmt::format("MOVED: {} -> {} (compute and weights unchanged)", m.path, m.path_b);
    case Verdict::kChanged: {
      std::string out = "CHANGED: ";
      std::string parts = structural_changes(m);
      out += parts.empty() ? "compute unchanged" : parts;
      if (m.weights_changed || m.weights_a.state != m.weights_b.state) {
        out += "; " + (w.empty() ? std::string("weights changed") : w);
        if (m.weights_a.state != m.weights_b.state && m.weights_a.state != WeightState::kNone) {
          out += fmt::format(" (A: {})", to_string(m.weights_a.state));
        }
      }
      if (!m.path_b.empty()) out += fmt::format("; moved to {}", m.path_b);
      return out;
    }
    case Verdict::kUnchanged:
      if (m.a.present && m.b.present && m.a.ops == 0 && m.a.kernels == 0 && m.b.ops == 0 &&
          m.b.kernels == 0 && m.weights_a.params > 0) {
        return "UNCHANGED: runs no op in A or in B on these inputs (a candidate: never runs)";
      }
      return "UNCHANGED";
  }
  return "";
}

std::string verdict_counts_text(const RunDiff& d) {
  std::string out;
  for (int v = 0; v < kVerdictCount; ++v) {
    if (d.modules_by_verdict[v] == 0) continue;
    out += fmt::format("{}{} {}", out.empty() ? "" : ", ", d.modules_by_verdict[v],
                       to_string(static_cast<Verdict>(v)));
  }
  return out.empty() ? "none" : out;
}

StatusOr<std::string> explain_module(const RunDiff& d, const std::string& path) {
  const ModuleDiff* m = nullptr;
  for (const auto& row : d.modules) {
    if (row.path == path || (!row.path_b.empty() && row.path_b == path)) {
      m = &row;
      break;
    }
  }
  if (m == nullptr) return NotFound("--explain " + path + ": no module of A or B has that path");
  std::string out;
  const std::string b_own = m->path_b.empty() ? m->path : m->path_b;
  if (m->a.present && m->b.present) {
    out += fmt::format("A {} = B {} ({} -> {})\n", m->path.empty() ? "(root)" : m->path,
                       b_own.empty() ? "(root)" : b_own, m->type, m->type_b);
  } else {
    out += fmt::format("{} {} ({}): in {} only\n", m->a.present ? "A" : "B", m->a.present ? m->path : b_own,
                       m->type, m->a.present ? "A" : "B");
  }
  out += "  verdict: " + m->verdict_text + "\n";
  if (m->match) {
    const MatchEvidence& e = m->match->evidence;
    out += fmt::format(
        "  score {:.2f} = name {:.2f} + class {:.2f} + order {:.2f} + structure {:.2f} + weights {:.2f} + "
        "compute {:.2f}{}\n",
        m->match->score, e.name, e.type, e.order, e.structure, e.weights, e.compute,
        e.pinned ? " (declared by a --map)" : "");
    if (std::isfinite(m->match->margin)) {
      out += fmt::format(
          "  runner-up: the best other reading {} ({:.2f} lower in total; under {:.1f} is AMBIGUOUS)\n",
          m->match->runner_up == "(none)" ? std::string("leaves it unpaired")
                                          : "pairs it with B " + m->match->runner_up,
          m->match->margin, kAmbiguityMargin);
    } else {
      out += "  runner-up: no other reading changes whether it is matched\n";
    }
  } else if (!m->path.empty()) {
    out += "  no B module scored high enough to be paired with it (or it is only in B)\n";
  }
  if (m->ambiguous_group >= 0) {
    const AmbiguousGroup& g = d.ambiguous_groups[static_cast<std::size_t>(m->ambiguous_group)];
    out += fmt::format("  ambiguous: \"{}\" or \"{}\" ({:.2f} apart)\n", g.chosen, g.alternative, g.margin);
  }
  for (const auto& p : d.params) {
    const bool below = m->path.empty() || p.name.rfind(m->path + ".", 0) == 0;
    if (!below || (p.moved_to.empty() && p.moved_from.empty() && !p.changed)) continue;
    if (!p.moved_to.empty()) {
      out += fmt::format(
          "  tensor {} -> B {} ({}{})\n", p.name, p.moved_to, to_string(p.relation),
          p.relation == ContentRelation::kSimilar ? fmt::format(", similarity {:.6f}", p.similarity) : "");
    } else if (!p.moved_from.empty()) {
      out += fmt::format("  tensor {} <- A {} ({})\n", p.name, p.moved_from, to_string(p.relation));
    } else {
      out += fmt::format(
          "  tensor {}: {} -> {}{}\n", p.name, to_string(p.state_a), to_string(p.state_b),
          p.state_a != WeightState::kNone && p.state_b != WeightState::kNone ? ", values changed" : "");
    }
  }
  return out;
}

}  // namespace flopscope
