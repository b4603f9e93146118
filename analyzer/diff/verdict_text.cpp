// The wording of the diff's verdicts: one owner, so the CLI reports and the GUI print the same lines.
#include <fmt/format.h>

#include <cmath>

#include "analyzer/diff/between_runs.h"
#include "analyzer/diff/diff.h"
#include "analyzer/diff/units.h"

namespace flopscope {
namespace {

// "64 ops, 2 kernels, 1.80 GFLOPs, 12.0 MB, 0.900 ms P50, 12.3% of time"
std::string cost_text(const SideCost& s) {
  std::string out = format_count(s.ops) + " ops";
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
    case WeightState::kErased:
      return a.params > 0 ? fmt::format("weights ERASED ({} params, {} in A)", a.params,
                                        bytes_text(static_cast<double>(a.bytes)))
                          : "weights ERASED";
    case WeightState::kZeroed:
      return fmt::format("weights ZEROED ({} params, {})", b.params,
                         bytes_text(static_cast<double>(b.bytes)));
    case WeightState::kActive:
      // "values changed" only when there were values in A to compare with.
      return fmt::format("weights ACTIVE ({} params, {}{})", b.params,
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
    for (auto s : {change("ops", m.a.ops, m.b.ops, count_text),
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

std::string describe_verdict(const ModuleDiff& m) {
  std::string w = weights_text(m.weights_a, m.weights_b, m.weights_changed);
  auto with_weights = [&](std::string s) { return w.empty() ? s : s + "; " + w; };
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
                             ? fmt::format("weights ZEROED ({} params)", m.weights_b.params)
                             : fmt::format("its result is multiplied by zero ({} = 0)", m.discarded_by),
                         cost_text(m.b));
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

}  // namespace flopscope
