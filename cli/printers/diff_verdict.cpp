#include <fmt/format.h>

#include <cmath>

#include "analyzer/diff/between_runs.h"
#include "cli/printers/diff_format.h"
#include "cli/printers/diff_report.h"

namespace flopscope::cli {
std::string time_change_text(const MedianDifference& t, bool significant) {
  return describe_time_change(t, significant);
}

std::string verdict_text(const ModuleDiff& m) { return m.verdict_text; }

std::string module_counts_text(const RunDiff& d) {
  std::string out = verdict_counts_text(d);
  if (d.modules_slower > 0 || d.modules_faster > 0) {
    out += fmt::format("; time: {} slower, {} faster", d.modules_slower, d.modules_faster);
  }
  if (d.time_status == TimeStatus::kNotAssessable) out += std::string("; time (n/a): ") + kNotAssessableText;
  return out;
}

std::string sentence_terminal(const RunDiff& d) { return terminal_safe(d.sentence.text(), false); }

std::string sentence_markdown(const RunDiff& d) {
  std::string out;
  for (const auto& p : d.sentence.parts) out += p.module ? markdown_code(p.text, false) : markdown_escape(p.text);
  return out;
}

std::string sentence_html(const RunDiff& d) {
  std::string out;
  for (const auto& p : d.sentence.parts) out += p.module ? "<code>" + html_escape(p.text) + "</code>" : html_escape(p.text);
  return out;
}

std::string maps_text(const RunDiff& d) {
  std::string out;
  for (std::size_t i = 0; i < d.maps.size(); ++i) out += (i ? "; " : "") + d.maps[i];
  return out;
}

std::string totals_text(const RunDiff& d) {
  std::vector<std::string> parts;
  auto rel = [](double a, double b) { return a != 0 ? " (" + format_signed_percent((b - a) / a) + ")" : std::string(); };
  parts.push_back(fmt::format("FLOPs {} -> {}{}", flops_text(d.a.flops), flops_text(d.b.flops), rel(d.a.flops, d.b.flops)));
  parts.push_back(fmt::format("bytes {} -> {}{}", bytes_text(d.a.bytes), bytes_text(d.b.bytes), rel(d.a.bytes, d.b.bytes)));
  if (d.a.measured() || d.b.measured()) {
    parts.push_back(fmt::format("measured FLOPs {} -> {}{}", flops_text(d.a.measured_flops),
                                flops_text(d.b.measured_flops), rel(d.a.measured_flops, d.b.measured_flops)));
    parts.push_back(fmt::format("measured DRAM {} -> {}{}", bytes_text(d.a.dram_bytes), bytes_text(d.b.dram_bytes),
                                rel(d.a.dram_bytes, d.b.dram_bytes)));
  }
  parts.push_back(fmt::format("ops {} -> {}", format_count(d.a.ops), format_count(d.b.ops)));
  if (d.a.kernels > 0 || d.b.kernels > 0) {
    parts.push_back(fmt::format("kernels {} -> {}", format_count(d.a.kernels), format_count(d.b.kernels)));
  }
  std::string time = fmt::format("{} time P50 {} -> {}", d.gpu_time ? "device" : "host",
                                 time_text(d.a.time.p50), time_text(d.b.time.p50));
  // Tested between runs: the change is that of the per-process medians' means, which the P50s need not show.
  if (d.time_diff.assessable && d.time_status != TimeStatus::kUntested && !std::isnan(d.time_diff.ci_low)) {
    time += fmt::format(", mean of per-process medians ({} and {} processes) {} -> {}", d.a.processes,
                        d.b.processes, time_text(d.time_diff.median_a), time_text(d.time_diff.median_b));
  }
  parts.push_back(time + ": " + time_change_text(d.time_diff, d.time_significant));
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
    if (o.all_modules || m.verdict != Verdict::kUnchanged || m.time_status == TimeStatus::kSlower ||
        m.time_status == TimeStatus::kFaster) {
      out.push_back(&m);
    }
  }
  return out;
}

}  // namespace flopscope::cli
