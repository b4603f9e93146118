#include <fmt/format.h>

#include <algorithm>

#include "analyzer/analysis/report_view.h"
#include "analyzer/clock.h"
#include "analyzer/format.h"
#include "analyzer/module_params.h"
#include "analyzer/work_text.h"
#include "cli/printers/report.h"
#include "cli/printers/units.h"
#include "db/model/text_escape.h"

namespace flopscope::cli {
namespace {

std::string module_label(const ModuleSummary& m) {
  std::string name = m.path.empty() ? "(model)" : terminal_safe(m.path, false);  // one line per module
  return std::string(static_cast<std::size_t>(2 * m.depth), ' ') + name;
}

std::string short_hash(const std::string& h) {
  return h.size() > 12 ? h.substr(0, 12) : h;
}

// Source, device, inputs, iterations, totals and coverage by time.
std::string header_text(const RunData& run, const RunSummary& s) {
  std::string out;
  const RunInfo& i = run.info;
  out += fmt::format("source     {} ({}, sha256 {})\n", i.source_path, to_string(i.source_kind),
                     short_hash(i.source_sha256));
  if (!i.device.empty()) out += fmt::format("device     {}\n", i.device);
  if (!i.input_spec.empty()) out += fmt::format("input      {}\n", i.input_spec);
  out += fmt::format("iterations {} measured{}", s.iterations, iterations_found_text(i));
  if (i.warmup > 0) out += fmt::format(", {} warmup", i.warmup);
  if (i.threads > 0) out += fmt::format(", {} threads", i.threads);
  out += "\n";
  const Clock clock = run_clock(s);
  const bool gpu = clock == Clock::kDevice;
  const LatencyStats& it = iteration_time(s, clock);
  const std::string per_iteration = it.samples <= 1
                                        ? time_text(it.p50) + " (1 iteration)"
                                        : "P50 " + time_text(it.p50) + "  P99 " + percentile_text(it, 99);
  if (s.ops_total == 0 && (s.total.measured_flops > 0 || s.total.dram_bytes > 0)) {
    // Kernels with counters and no ops (Nsight Compute): the measured work is the only work there is.
    out += fmt::format("total      no ops to count; measured {}, {} DRAM traffic; {} time per iteration {}\n",
                       flops_text(s.total.measured_flops + s.total.tensor_flops),
                       bytes_text(s.total.dram_bytes), gpu ? "device" : "host", per_iteration);
  } else {
    out += fmt::format("total      {} ({} MACs), {} moved, {:.1f} FLOP/B; {} time per iteration {}\n",
                       lower_bound_flops_text(s.total.flops, s.coverage.flops_complete),
                       si_text(s.total.macs, ""), bytes_text(s.total.bytes()), s.total.intensity(),
                       gpu ? "device" : "host", per_iteration);
  }
  if (gpu) {
    out += fmt::format("           host op time per iteration P50 {}; communication {} per iteration\n",
                       time_text(s.iteration_time.p50), time_text(s.modules[0].comm_time_ns));
  }
  out += "coverage   " + coverage_by_time_text(s) + "\n\n";

  return out;
}

// The module tree with costs and times on the run's clock, and the parameters each module holds.
std::string module_table_text(const RunData& run, const RunSummary& s, const ReportOptions& o) {
  std::string out;
  const std::vector<ModuleParams> params = module_params(s, run.params);
  const Clock clock = run_clock(s);
  const bool gpu = clock == Clock::kDevice;
  const LatencyStats& it = iteration_time(s, clock);
  std::vector<int> order = module_order(s, o);
  std::size_t name_w = 6;
  for (int idx : order)
    name_w = std::max(name_w, module_label(s.modules[static_cast<std::size_t>(idx)]).size());
  name_w = std::min<std::size_t>(name_w, 60);
  // Time columns are device time when the run has kernels (labelled "dev"), else host op time.
  out += fmt::format(
      "{:<{}}  {:<20} {:>6} {:>13} {:>11} {:>10} {:>7} {:>10} {:>10} {:>10} {:>6} {:>8} {:>10} {:>11}",
      "module", name_w, "type", "calls", "FLOPs", "self FLOPs", "bytes", "FLOP/B", gpu ? "dev P50" : "P50",
      gpu ? "dev P90" : "P90", gpu ? "dev P99" : "P99", "time%", "params", "own params", "param bytes");
  out += gpu ? fmt::format(" {:>10} {:>10} {:>11} {:>9} {:>14}\n", "host P50", "comm", "FLOP/s dev",
                           "B/s dev", "bound (dev)")
             : "\n";
  bool above_roof = false;
  for (int idx : order) {
    const auto& m = s.modules[static_cast<std::size_t>(idx)];
    const LatencyStats& t = inclusive_time(m, clock);
    std::string type = terminal_safe(m.type, false);
    if (type.size() > 20) type = type.substr(0, 19) + "~";
    std::string flops = (m.flops_complete ? "" : ">=") + si_text(m.inclusive.flops, "");
    const ParamCells p = param_cells(params, static_cast<std::size_t>(idx));
    out += fmt::format(
        "{:<{}}  {:<20} {:>6.1f} {:>13} {:>11} {:>10} {:>7.1f} {:>10} {:>10} {:>10} {:>6} {:>8} {:>10} "
        "{:>11}",
        module_label(m), name_w, type, m.calls, flops, si_text(m.self.flops, ""),
        si_text(m.inclusive.bytes(), ""), m.inclusive.intensity(), time_text(t.p50), percentile_text(t, 90),
        percentile_text(t, 99), percent_text(m.share_time), p.total, p.own, p.bytes);
    if (gpu) {
      RatesText r = rates_text(m.rates, m.gpu_time.mean, true, !m.flops_complete);
      above_roof = above_roof || r.above_roof;
      out += fmt::format(" {:>10} {:>10} {:>11} {:>9} {:>14}", time_text(m.inclusive_time.p50),
                         time_text(m.comm_time_ns), r.flops, r.bytes, r.bound);
    }
    out += "\n";
  }
  if (above_roof) out += std::string(kAboveRoofNote) + "\n";
  if (std::string note = percentile_note(it.samples); !note.empty()) out += "note: " + note + "\n";

  return out;
}

// Top ops: shares and "unknown" decided once for every format (analyzer/analysis/report_view).
std::string top_ops_text(const ReportView& view, bool gpu) {
  std::string out;
  if (!view.top_ops.empty()) {
    // With kernels: host and device time side by side, the share of device time, and the achieved rates.
    // The op column fits the longest name (aten::scaled_dot_product_attention is 34), up to 48 characters; a
    // longer one is cut in the middle so its end still tells it apart. Rows stay aligned either way.
    std::vector<std::string> names;
    for (const TopOpView& row : view.top_ops) names.push_back(terminal_safe(row.op->name, false));
    std::size_t op_w = 28;
    for (const std::string& n : names) op_w = std::max(op_w, std::min<std::size_t>(n.size(), 48));
    names = elide_distinct(names, op_w);
    out += fmt::format(
        "\ntop ops (per iteration; {} {})\n{:<{}} {:<44} {:>6} {:>11} {:>11} {:>7}{}\n",
        share_column(view.op_share_of), to_string(view.op_share_of), "op", op_w, "module", "calls", "FLOPs",
        "host time", share_column(view.op_share_of),
        gpu ? fmt::format(" {:>11} {:>11} {:>9} {:>14}", "dev time", "FLOP/s dev", "B/s dev", "bound (dev)")
            : "");
    bool above_roof = false;
    for (std::size_t k = 0; k < view.top_ops.size(); ++k) {
      const TopOpView& row = view.top_ops[k];
      const OpSummary& op = *row.op;
      std::string mod = op.module_path.empty() ? "(model)" : terminal_safe(op.module_path, false);
      if (mod.size() > 44) mod = "~" + mod.substr(mod.size() - 43);  // the end tells layers apart
      RatesText r = rates_text(op.rates, op.device_time_ns, row.flops_known, false);
      above_roof = above_roof || (gpu && r.above_roof);
      out += fmt::format("{:<{}} {:<44} {:>6.1f} {:>11} {:>11} {:>7}{}\n", names[k], op_w, mod, op.calls,
                         row.flops_known ? si_text(op.flops, "") : std::string("unknown"),
                         time_text(op.time_ns), view.share_denominator_ns > 0 ? percent_text(row.share) : "",
                         gpu ? fmt::format(" {:>11} {:>11} {:>9} {:>14}", time_text(op.device_time_ns),
                                           r.flops, r.bytes, r.bound)
                             : "");
    }
    if (above_roof) out += std::string(kAboveRoofNote) + "\n";
  }

  return out;
}

// FLOPs coverage: the sentence, and the ops without a formula when some carry uncounted work.
std::string coverage_text(const RunSummary& s, const CoverageView& cov, const ReportOptions& o, bool gpu) {
  std::string out;
  out += "\nFLOPs coverage: " + cov.count + "\n";
  if (cov.no_gap) {
    out += "  " + cov.sentence + "\n";
  } else {
    // With kernels the list is sorted by the device time under each op: show it beside the host share.
    // Each share names its denominator: host time, and the compute-kernel time the device share is of.
    out += fmt::format("  {}\n  {:<40} {:>8} {:>8}{}\n", cov.sentence, "op", "count", gpu ? "host%" : "time%",
                       gpu ? fmt::format(" {:>8}", share_column(ShareOf::kComputeKernelTime)) : "");
    std::size_t n =
        o.full_coverage ? s.coverage_gaps.size() : std::min<std::size_t>(10, s.coverage_gaps.size());
    for (std::size_t k = 0; k < n; ++k) {
      const auto& g = s.coverage_gaps[k];
      std::string name = g.note.empty() ? g.name : g.name + " [" + g.note + "]";
      out += fmt::format("  {:<40} {:>8} {:>8}{}\n", terminal_safe(name, false), g.count,
                         percent_text(g.share_of_time),
                         gpu ? fmt::format(" {:>8}", percent_text(g.share_of_device_time)) : "");
    }
    if (n < s.coverage_gaps.size()) {
      out += fmt::format("  ... {} more (--coverage lists all)\n", s.coverage_gaps.size() - n);
    }
  }
  return out;
}

// Where the kernels' time went (device runs): attribution and the device timeline.
std::string device_text(const RunSummary& s) {
  std::string out;
  const auto& a = s.attribution;
  const WindowKernels w = window_kernels(a.kernels, a.kernel_time_ns, s.orphans.kernels, s.orphans.time_ns);
  out += fmt::format(
      "\nkernel attribution: {} kernels{}, {} linked to an op, {} attributed to a module; "
      "{} of {} device time attributed ({}), unattributed {}{}\n",
      w.kernels,
      a.kernels_from_graph_replay > 0
          ? fmt::format(" ({} replayed from a CUDA graph)", a.kernels_from_graph_replay)
          : std::string(),
      a.kernels_with_op, a.kernels_with_module, time_text(a.kernel_time_attributed_ns), time_text(w.time_ns),
      percent_text(w.time_ns > 0 ? a.kernel_time_attributed_ns / w.time_ns : 0),
      time_text(w.time_ns - a.kernel_time_attributed_ns), orphans_apart_text(w.orphans));
  out += "\ndevice timeline (busy = union of kernel intervals; idle = span - busy)\n";
  out += device_facts_text(s, "  ");
  return out;
}

std::string quality_text(const RunSummary& s) {
  std::string out;
  if (!s.quality.empty()) {
    out += "\ndata quality\n";
    for (const auto& q : s.quality) {
      out += fmt::format("  [{}] {} x{}: {}{}\n", to_string(q.severity), q.id(), q.count, q.text(),
                         q.detail.empty() ? "" : " (" + q.detail + ")");
    }
  }
  return out;
}

}  // namespace

std::string render_report_table(const RunData& run, const RunSummary& s, const ReportOptions& o) {
  const bool gpu = run_clock(s) == Clock::kDevice;
  const ReportView view = make_report_view(s, o.top_ops);
  std::string out = header_text(run, s);
  if (o.activity != nullptr) out += iteration_activity_text(*o.activity, false);
  out += module_table_text(run, s, o) + top_ops_text(view, gpu) + coverage_text(s, view.coverage, o, gpu);
  if (gpu) out += device_text(s);
  if (o.memory != nullptr) out += memory_text(*o.memory, s, o.top_ops, false);
  return out + quality_text(s);
}

}  // namespace flopscope::cli
