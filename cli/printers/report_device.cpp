// The device-side sections of the report (coverage by time, timeline, orphans, roofline) as text lines,
// shared by the table and Markdown printers. The numbers come from the analyzer; this only words them.
#include <fmt/format.h>

#include "analyzer/analysis/report_view.h"
#include "cli/printers/report.h"
#include "cli/printers/units.h"

namespace flopscope::cli {

RatesText rates_text(const Roofline& r, double device_ns, bool flops_known, bool lower_bound) {
  if (device_ns <= 0) return {"-", "-", "-"};
  RatesText t;
  t.flops = !flops_known ? "unknown" : (lower_bound ? ">=" : "") + si_text(r.achieved_flops_per_s, "");
  t.bytes = flops_known ? si_text(r.achieved_bytes_per_s, "") : "unknown";
  t.above_roof = flops_known && r.attainable_flops_per_s > 0 && r.fraction_of_attainable > 1;
  t.bound = flops_known && r.attainable_flops_per_s > 0
                ? fmt::format("{} {}{}", r.memory_bound ? "memory" : "compute",
                              percent_text(r.fraction_of_attainable), t.above_roof ? "^" : "")
                : "-";
  return t;
}

std::string coverage_by_time_text(const RunSummary& s) {
  std::string out;
  if (s.has_kernels) {
    // Nsight Compute / Systems runs have no host ops: no host share to give.
    out = fmt::format("FLOPs known for {} {} ({})", percent_text(s.coverage.known_device_share),
                      to_string(ShareOf::kComputeKernelTime),
                      s.ops_total > 0 ? percent_text(s.coverage.known_host_share) + " of host time"
                                      : std::string("no host ops in the trace"));
  } else {
    out = fmt::format("FLOPs known for {} of host time", percent_text(s.coverage.known_host_share));
  }
  if (!s.coverage_gaps.empty()) {
    const auto& g = s.coverage_gaps.front();
    out += s.has_kernels && g.device_time_ns > 0
               ? fmt::format("; unknown: {} {} {}", g.name, percent_text(g.share_of_device_time),
                             to_string(ShareOf::kComputeKernelTime))
               : fmt::format("; unknown: {} {} of host time", g.name, percent_text(g.share_of_time));
  }
  if (s.coverage.unlinked_device_share > 0) {
    out += fmt::format("; kernels without an op: {} of device time",
                       percent_text(s.coverage.unlinked_device_share));
  }
  return out;
}

std::string device_facts_text(const RunSummary& s, const std::string& prefix) {
  std::string out;
  for (const auto& d : s.timeline.devices) {
    out += fmt::format(
        "{}device {}: span {}, busy {} ({}), idle {}, overlap {}; compute {}, communication {} "
        "(overlapping compute {}); {} gaps between activities, P50 {}, max {}\n",
        prefix, d.device, time_text(d.span_ns), time_text(d.busy_ns),
        percent_text(d.span_ns > 0 ? d.busy_ns / d.span_ns : 0), time_text(d.idle_ns),
        time_text(d.overlap_ns), time_text(d.compute_busy_ns), time_text(d.communication_busy_ns),
        time_text(d.compute_comm_overlap_ns), d.gaps, time_text(d.gap_p50_ns), time_text(d.gap_max_ns));
  }
  for (const auto& t : s.timeline.streams) {
    out += fmt::format("{}  stream {}:{}: {} activities, busy {}, idle {}, overlap {}\n", prefix, t.device,
                       t.stream, t.activities, time_text(t.busy_ns), time_text(t.idle_ns),
                       time_text(t.overlap_ns));
  }
  if (s.orphans.kernels > 0) {
    out += fmt::format(
        "{}orphan kernels (launched before the profiling window): {}, {} device time, not in any iteration\n",
        prefix, s.orphans.kernels, time_text(s.orphans.time_ns));
  }
  const Cost& t = s.total;
  if (t.measured_flops > 0 || t.dram_bytes > 0 || t.tensor_inst > 0) {
    // Only dram__bytes.sum for some kernels: their traffic is not put in either column.
    const std::string split =
        t.dram_split_known()
            ? fmt::format("read {}, written {}", bytes_text(t.dram_read), bytes_text(t.dram_written))
        : t.dram_read + t.dram_written > 0
            ? fmt::format("read/write split not measured for {} of it; the rest read {}, written {}",
                          bytes_text(t.dram_unsplit), bytes_text(t.dram_read), bytes_text(t.dram_written))
            : std::string("total only: read/write split not measured");
    // Tensor-pipe instructions become FLOPs only on an architecture with a fixed factor
    // (analyzer/tensor_factor).
    std::string tensor;
    if (t.tensor_inst > 0) {
      const auto& f = s.tensor_factor;
      tensor =
          f && f->converts()
              ? fmt::format(", {} tensor-pipe instructions = {} on tensor cores ({:g} per instruction, {})",
                            si_text(t.tensor_inst, ""), flops_text(t.tensor_flops), f->flops_per_instruction,
                            f->architecture)
          : f ? fmt::format(", {} tensor-pipe instructions (a count, not FLOPs: no fixed factor on {})",
                            si_text(t.tensor_inst, ""), f->architecture)
              : fmt::format(", {} tensor-pipe instructions (a count, not FLOPs)", si_text(t.tensor_inst, ""));
    }
    // No DRAM bytes in any measured kernel: the counters recorded were others (a Kineto range-profiler trace
    // with FLOP counters only), so the traffic is unknown, not 0.
    const std::string dram = t.dram_bytes > 0
                                 ? fmt::format("{} DRAM traffic ({})", bytes_text(t.dram_bytes), split)
                                 : std::string("DRAM traffic not measured (no DRAM counter recorded)");
    out +=
        fmt::format("{}measured (hardware counters, per iteration): {}{}, {}{}\n", prefix,
                    flops_text(t.measured_flops), t.tensor_flops > 0 ? " on CUDA cores" : "", dram, tensor);
  }
  if (s.peak && s.has_kernels && s.total.bytes() > 0) {
    const auto& r = s.roofline;
    out += fmt::format(
        "{}roofline ({}, {} peak, {}/s; {}): achieved {}{}/s and {}/s over the P50 device time, {:.1f} "
        "FLOP/B, "
        "{}-bound, {} of the attainable {}/s\n",
        prefix, s.peak->name, si_text(s.peak->flops_per_s, "FLOP/s"), bytes_text(s.peak->bytes_per_s),
        s.peak->source, s.coverage.flops_complete ? "" : ">= ", si_text(r.achieved_flops_per_s, "FLOP"),
        bytes_text(r.achieved_bytes_per_s), r.intensity, r.memory_bound ? "memory" : "compute",
        percent_text(r.fraction_of_attainable), si_text(r.attainable_flops_per_s, "FLOP"));
  }
  return out;
}

}  // namespace flopscope::cli
