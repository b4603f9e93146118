#include <fmt/format.h>

#include <algorithm>

#include "analyzer/analysis/report_view.h"
#include "analyzer/clock.h"
#include "analyzer/module_params.h"
#include "analyzer/work_text.h"
#include "cli/printers/report.h"
#include "cli/printers/units.h"
#include "db/model/text_escape.h"

namespace flopscope::cli {
namespace {
std::string indent(int depth) {
  std::string s;
  for (int d = 0; d < depth; ++d) s += "&nbsp;&nbsp;";
  return s;
}

// The module table, device time with host time, communication and rates beside it on device runs.
std::string module_table_markdown(const RunData& run, const RunSummary& s, const ReportOptions& o) {
  const Clock clock = run_clock(s);
  const bool gpu = clock == Clock::kDevice;
  std::string out;
  // With kernels the time columns are device time, with host time, communication and the achieved rates
  // beside them.
  // Parameters: elements with children and of the module itself, bytes with children.
  out +=
      gpu ? "| module | type | calls | FLOPs | self FLOPs | bytes | FLOP/B | dev P50 | dev P99 | time % | "
            "params | own params | param bytes | host P50 "
            "| comm | FLOP/s dev | B/s dev | bound (dev) |\n"
            "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|\n"
          : "| module | type | calls | FLOPs | self FLOPs | bytes | FLOP/B | P50 | P99 | time % | params | "
            "own params | param bytes |\n"
            "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n";
  const std::vector<ModuleParams> params = module_params(s, run.params);
  bool above_roof = false;
  for (int idx : module_order(s, o)) {
    const auto& m = s.modules[static_cast<std::size_t>(idx)];
    const LatencyStats& t = inclusive_time(m, clock);
    out += fmt::format("| {}{} | {} | {:.1f} | {} | {} | {} | {:.1f} | {} | {} | {} |", indent(m.depth),
                       m.path.empty() ? "(model)" : markdown_code(m.path, true), markdown_escape(m.type),
                       m.calls, lower_bound_flops_text(m.inclusive.flops, m.flops_complete),
                       flops_text(m.self.flops), bytes_text(m.inclusive.bytes()), m.inclusive.intensity(),
                       time_text(t.p50), percentile_text(t, 99), percent_text(m.share_time));
    const ParamCells p = param_cells(params, static_cast<std::size_t>(idx));
    out += fmt::format(" {} | {} | {} |", p.total, p.own, p.bytes);
    if (gpu) {
      RatesText r = rates_text(m.rates, m.gpu_time.mean, true, !m.flops_complete);
      above_roof = above_roof || r.above_roof;
      out +=
          fmt::format(" {} | {} | {} | {} | {} |", time_text(m.inclusive_time.p50), time_text(m.comm_time_ns),
                      markdown_escape(r.flops), r.bytes, markdown_escape(r.bound));
    }
    out += "\n";
  }
  if (above_roof) out += "\n" + markdown_escape(kAboveRoofNote) + "\n";
  return out;
}

std::string top_ops_markdown(const ReportView& view, bool gpu) {
  std::string out;
  if (!view.top_ops.empty()) {
    const std::string share_head =
        std::string(share_column(view.op_share_of)) + " (" + to_string(view.op_share_of) + ")";
    out += gpu ? "\n**Top ops** (per iteration)\n\n| op | module | calls | FLOPs | host time | dev time | " +
                     share_head +
                     " | FLOP/s dev | B/s dev | bound (dev) "
                     "|\n|---|---|---:|---:|---:|---:|---:|---:|---:|---|\n"
               : "\n**Top ops** (per iteration)\n\n| op | module | calls | FLOPs | host time | " +
                     share_head + " |\n|---|---|---:|---:|---:|---:|\n";
    bool above_roof = false;
    for (const TopOpView& row : view.top_ops) {
      const OpSummary& op = *row.op;
      out += fmt::format("| {} | {} | {:.1f} | {} | {} |", markdown_code(op.name, true),
                         op.module_path.empty() ? "(model)" : markdown_code(op.module_path, true), op.calls,
                         row.flops_known ? flops_text(op.flops) : "unknown", time_text(op.time_ns));
      if (gpu) {
        RatesText r = rates_text(op.rates, op.device_time_ns, row.flops_known, false);
        above_roof = above_roof || r.above_roof;
        out += fmt::format(" {} | {} | {} | {} | {} |", time_text(op.device_time_ns), percent_text(row.share),
                           r.flops, r.bytes, markdown_escape(r.bound));
      } else {
        out += fmt::format(" {} |", percent_text(row.share));
      }
      out += "\n";
    }
    if (above_roof) out += "\n" + markdown_escape(kAboveRoofNote) + "\n";
  }
  return out;
}

std::string coverage_markdown(const RunSummary& s, const CoverageView& coverage, bool gpu) {
  std::string out;
  out += fmt::format("\n**FLOPs coverage**: {}; {}\n", coverage.count,
                     coverage.no_gap ? coverage.sentence : "the ops below carry FLOPs nobody counted");
  if (!s.coverage_gaps.empty()) {
    out += gpu ? "\n**Ops whose FLOPs are unknown** (not zero: no formula, or its arguments are "
                 "missing):\n\n| op | "
                 "count | host time % | compute-kernel time % |\n|---|---:|---:|---:|\n"
               : "\n**Ops whose FLOPs are unknown** (not zero: no formula, or its arguments are "
                 "missing):\n\n| op | "
                 "count | time % |\n|---|---:|---:|\n";
    for (const auto& g : s.coverage_gaps) {
      out += fmt::format("| {}{} | {} | {} |{}\n", markdown_code(g.name, true),
                         g.note.empty() ? "" : " (" + markdown_escape(g.note) + ")", g.count,
                         percent_text(g.share_of_time),
                         gpu ? fmt::format(" {} |", percent_text(g.share_of_device_time)) : "");
    }
  }
  return out;
}

}  // namespace

std::string render_report_markdown(const RunData& run, const RunSummary& s, const ReportOptions& o) {
  const Clock clock = run_clock(s);
  const bool gpu = clock == Clock::kDevice;
  const LatencyStats& it = iteration_time(s, clock);
  std::string out = fmt::format("## flopscope report: {}\n\n", markdown_code(run.info.source_path, false));
  // Kernels with counters and no ops (Nsight Compute): the measured work is the only work there is.
  const bool measured_only = s.ops_total == 0 && (s.total.measured_flops > 0 || s.total.dram_bytes > 0);
  out += fmt::format(
      "{} iterations{} on {}; input {}. Total per iteration: **{}**, {} moved, P50 {} / P99 {}.\n\n",
      s.iterations, markdown_escape(iterations_found_text(run.info)),
      markdown_escape(run.info.device.empty() ? to_string(run.info.source_kind) : run.info.device),
      markdown_code(run.info.input_spec, false),
      measured_only ? flops_text(s.total.measured_flops + s.total.tensor_flops) + " measured"
                    : lower_bound_flops_text(s.total.flops, s.coverage.flops_complete),
      bytes_text(measured_only ? s.total.dram_bytes : s.total.bytes()), time_text(it.p50),
      percentile_text(it, 99));
  out += coverage_by_time_text(s) + ".\n\n";
  if (std::string note = percentile_note(it.samples); !note.empty()) out += note + ".\n\n";
  if (gpu)
    out += "Times below are device time (kernels); host op time P50 " + time_text(s.iteration_time.p50) +
           ".\n\n";
  if (o.activity != nullptr) out += iteration_activity_text(*o.activity, true);
  out += module_table_markdown(run, s, o);
  const ReportView view = make_report_view(s, o.top_ops);  // shares and "unknown": one rule for every format
  out += top_ops_markdown(view, gpu) + coverage_markdown(s, view.coverage, gpu);
  if (gpu) {
    out += "\n**Device timeline**\n\n";
    std::string facts = device_facts_text(s, "- ");
    out += facts;
  }
  if (o.memory != nullptr) out += memory_text(*o.memory, s, o.top_ops, true);
  if (!s.quality.empty()) {
    out += "\n**Data quality**\n\n| code | what | count | severity | detail |\n|---|---|---:|---|---|\n";
    for (const auto& q : s.quality) {
      out += fmt::format("| `{}` | {} | {} | {} | {} |\n", q.id(), markdown_escape(std::string(q.text())),
                         q.count, to_string(q.severity), markdown_escape(q.detail));
    }
  }
  return out;
}

}  // namespace flopscope::cli
