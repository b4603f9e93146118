#include "analyzer/diff/end_to_end_text.h"

#include <fmt/format.h>

#include <cmath>
#include <vector>

#include "analyzer/diff/between_runs.h"
#include "analyzer/diff/units.h"
#include "analyzer/format.h"

namespace flopscope {

std::string end_to_end_text(const RunDiff& d) {
  std::vector<std::string> parts;
  auto rel = [](double a, double b) {
    return a != 0 ? " (" + format_signed_percent((b - a) / a) + ")" : std::string();
  };
  parts.push_back(fmt::format("FLOPs {} -> {}{}", flops_text(d.a.flops), flops_text(d.b.flops),
                              rel(d.a.flops, d.b.flops)));
  parts.push_back(fmt::format("bytes {} -> {}{}", bytes_text(d.a.bytes), bytes_text(d.b.bytes),
                              rel(d.a.bytes, d.b.bytes)));
  if (d.a.measured() || d.b.measured()) {
    parts.push_back(fmt::format("measured FLOPs {} -> {}{}", flops_text(d.a.measured_flops),
                                flops_text(d.b.measured_flops), rel(d.a.measured_flops, d.b.measured_flops)));
    parts.push_back(fmt::format("measured DRAM {} -> {}{}", bytes_text(d.a.dram_bytes),
                                bytes_text(d.b.dram_bytes), rel(d.a.dram_bytes, d.b.dram_bytes)));
  }
  parts.push_back(fmt::format("op calls {} -> {}", format_count(d.a.ops), format_count(d.b.ops)));
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
  parts.push_back(time + ": " + describe_time_change(d.time_diff, d.time_significant, d.time_status));
  std::string out;
  for (std::size_t i = 0; i < parts.size(); ++i) out += (i ? "; " : "") + parts[i];
  return out;
}

std::string module_counts_line(const RunDiff& d) {
  std::string out = verdict_counts_text(d);
  if (d.modules_slower > 0 || d.modules_faster > 0) {
    out += fmt::format("; time: {} slower, {} faster", d.modules_slower, d.modules_faster);
  }
  if (d.time_status == TimeStatus::kNotAssessable) out += std::string("; time (n/a): ") + kNotAssessableText;
  return out;
}

}  // namespace flopscope
