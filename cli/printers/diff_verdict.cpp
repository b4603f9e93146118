#include <fmt/format.h>

#include <cmath>

#include "cli/printers/diff_format.h"
#include "cli/printers/diff_report.h"

namespace flopscope::cli {
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
    case WeightState::kNone: return "";
    case WeightState::kErased:
      return a.params > 0 ? fmt::format("weights ERASED ({} params, {} in A)", a.params, bytes_text(static_cast<double>(a.bytes)))
                          : "weights ERASED";
    case WeightState::kZeroed:
      return fmt::format("weights ZEROED ({} params, {})", b.params, bytes_text(static_cast<double>(b.bytes)));
    case WeightState::kActive:
      return fmt::format("weights ACTIVE ({} params, {}{})", b.params, bytes_text(static_cast<double>(b.bytes)),
                         changed ? ", values changed" : "");
  }
  return "";
}

std::string change(const char* what, double a, double b, std::string (*fmt_value)(double)) {
  if (a == b) return "";
  std::string rel = a != 0 ? " (" + format_signed_percent((b - a) / a) + ")" : "";
  return fmt::format("{} {} -> {}{}", what, fmt_value(a), fmt_value(b), rel);
}

std::string count_text(double n) { return format_count(n); }

}  // namespace

std::string time_change_text(const MedianDifference& t, bool significant) {
  if (t.diff == 0 && std::isnan(t.ci_low)) return "no change";
  std::string sign = t.diff >= 0 ? "+" : "-";
  std::string out = sign + time_text(std::fabs(t.diff));
  if (std::isnan(t.ci_low)) return out + " (not tested)";
  out += fmt::format(" (95% CI [{}{}, {}{}])", t.ci_low < 0 ? "-" : "+", time_text(std::fabs(t.ci_low)),
                     t.ci_high < 0 ? "-" : "+", time_text(std::fabs(t.ci_high)));
  if (!significant) return out + ", not significant";
  return out + (t.diff < 0 ? ", faster" : ", slower");
}

std::string verdict_text(const ModuleDiff& m) {
  std::string w = weights_text(m.weights_a, m.weights_b, m.weights_changed);
  auto with_weights = [&](std::string s) { return w.empty() ? s : s + "; " + w; };
  switch (m.verdict) {
    case Verdict::kVanished:
      return with_weights(fmt::format("VANISHED: {} (A: {})", m.b.present ? "no ops in B" : "not in B", cost_text(m.a)));
    case Verdict::kNew:
      return with_weights(fmt::format("NEW: {} (B: {})", m.a.present ? "no ops in A" : "not in A", cost_text(m.b)));
    case Verdict::kDormant:
      return fmt::format("DORMANT: weights ZEROED ({} params) but compute still runs (wastes per iteration: {})",
                         m.weights_b.params, cost_text(m.b));
    case Verdict::kChanged: {
      std::vector<std::string> parts;
      for (auto s : {change("ops", m.a.ops, m.b.ops, count_text), change("kernels", m.a.kernels, m.b.kernels, count_text),
                     change("FLOPs", m.a.flops, m.b.flops, flops_text), change("bytes", m.a.bytes, m.b.bytes, bytes_text)}) {
        if (!s.empty() && m.status == DiffStatus::kChanged) parts.push_back(s);
      }
      if (m.time_significant) parts.push_back("time " + time_change_text(m.time_diff, true));
      if (!m.type_b.empty() && m.type_b != m.type) parts.push_back("type " + m.type + " -> " + m.type_b);
      std::string out = "CHANGED: ";
      for (std::size_t i = 0; i < parts.size(); ++i) out += (i ? ", " : "") + parts[i];
      if (parts.empty()) out += "compute unchanged";
      if (m.weights_changed || m.weights_a.state != m.weights_b.state) {
        out += "; " + (w.empty() ? std::string("weights changed") : w);
        if (m.weights_a.state != m.weights_b.state && m.weights_a.state != WeightState::kNone) {
          out += fmt::format(" (A: {})", to_string(m.weights_a.state));
        }
      }
      return out;
    }
    case Verdict::kUnchanged: return "UNCHANGED";
  }
  return "";
}

std::string totals_text(const RunDiff& d) {
  std::vector<std::string> parts;
  auto rel = [](double a, double b) { return a != 0 ? " (" + format_signed_percent((b - a) / a) + ")" : std::string(); };
  parts.push_back(fmt::format("FLOPs {} -> {}{}", flops_text(d.a.flops), flops_text(d.b.flops), rel(d.a.flops, d.b.flops)));
  parts.push_back(fmt::format("bytes {} -> {}{}", bytes_text(d.a.bytes), bytes_text(d.b.bytes), rel(d.a.bytes, d.b.bytes)));
  parts.push_back(fmt::format("ops {} -> {}", format_count(d.a.ops), format_count(d.b.ops)));
  if (d.a.kernels > 0 || d.b.kernels > 0) {
    parts.push_back(fmt::format("kernels {} -> {}", format_count(d.a.kernels), format_count(d.b.kernels)));
  }
  parts.push_back(fmt::format("{} time P50 {} -> {}: {}", d.gpu_time ? "GPU" : "host", time_text(d.a.time.p50),
                              time_text(d.b.time.p50), time_change_text(d.time_diff, d.time_significant)));
  std::string out;
  for (std::size_t i = 0; i < parts.size(); ++i) out += (i ? "; " : "") + parts[i];
  return out;
}

std::vector<const ModuleDiff*> modules_to_show(const RunDiff& d, const DiffReportOptions& o) {
  std::vector<const ModuleDiff*> out;
  for (const auto& m : d.modules) {
    if (m.headline) out.push_back(&m);
  }
  for (const auto& m : d.modules) {
    if (m.headline) continue;
    if (o.all_modules || m.verdict != Verdict::kUnchanged) out.push_back(&m);
  }
  return out;
}

}  // namespace flopscope::cli
