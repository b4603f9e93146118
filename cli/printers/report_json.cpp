#include <algorithm>
#include <nlohmann/json.hpp>

#include "analyzer/analysis/report_view.h"
#include "analyzer/kernel_table.h"
#include "analyzer/module_params.h"
#include "analyzer/op_groups.h"
#include "cli/printers/candidates.h"
#include "cli/printers/report.h"
#include "db/model/input_limits.h"

namespace flopscope::cli {
namespace {
using nlohmann::ordered_json;

// A measured split, or null where part of the traffic was measured as a total only (split unknown).
ordered_json split_json(double value, double unsplit) {
  return unsplit > 0 ? ordered_json(nullptr) : ordered_json(value);
}

// Tensor FLOPs from tensor-pipe instructions, or null where the architecture has no factor for them.
ordered_json tensor_flops_json(double value, const std::optional<TensorPipeFactor>& factor) {
  return factor && factor->converts() ? ordered_json(value) : ordered_json(nullptr);
}

ordered_json cost_json(const Cost& c, const std::optional<TensorPipeFactor>& factor) {
  return {{"flops", c.flops},
          {"macs", c.macs},
          {"bytes_read", c.bytes_read},
          {"bytes_written", c.bytes_written},
          {"intensity", c.intensity()},
          {"measured_flops", c.measured_flops},
          {"measured_tensor_flops", tensor_flops_json(c.tensor_flops, factor)},
          {"dram_bytes", c.dram_bytes},
          {"dram_bytes_read", split_json(c.dram_read, c.dram_unsplit)},
          {"dram_bytes_written", split_json(c.dram_written, c.dram_unsplit)},
          {"tensor_pipe_instructions", c.tensor_inst},
          {"ops", c.ops},
          {"kernels", c.kernels}};
}

ordered_json stats_json(const LatencyStats& s) {
  return {{"samples", s.samples}, {"mean", s.mean}, {"p50", s.p50}, {"p90", s.p90},
          {"p99", s.p99},         {"min", s.min},   {"max", s.max}, {"values", s.values.dense()}};
}

// Achieved rates over device time and the roofline bound; null without device time. The rates are null when
// the op has no formula (its FLOPs and bytes are unknown), and the bound null without a peak for the device.
ordered_json rates_json(const Roofline& r, double device_ns, bool flops_known) {
  if (device_ns <= 0) return nullptr;
  const bool bound = r.attainable_flops_per_s > 0 && flops_known;
  return {
      {"achieved_flops_per_s", flops_known ? ordered_json(r.achieved_flops_per_s) : ordered_json(nullptr)},
      {"achieved_bytes_per_s", flops_known ? ordered_json(r.achieved_bytes_per_s) : ordered_json(nullptr)},
      {"intensity", flops_known ? ordered_json(r.intensity) : ordered_json(nullptr)},
      {"bound", bound ? ordered_json(r.memory_bound ? "memory" : "compute") : ordered_json(nullptr)},
      {"attainable_flops_per_s", bound ? ordered_json(r.attainable_flops_per_s) : ordered_json(nullptr)},
      {"fraction_of_attainable", bound ? ordered_json(r.fraction_of_attainable) : ordered_json(nullptr)}};
}

ordered_json arg_json(const OpArg& a) {
  if (a.is_tensor) return {{"dtype", a.dtype}, {"shape", a.shape}};
  return {{"value", a.value}};
}

ordered_json run_json(const RunInfo& i) {
  return {{"tool_version", i.tool_version},
          {"source_kind", to_string(i.source_kind)},
          {"source_path", i.source_path},
          {"source_sha256", i.source_sha256},
          {"device", i.device},
          {"host", i.host},
          {"input_spec", i.input_spec},
          {"iterations", i.iterations},
          {"warmup", i.warmup},
          {"threads", i.threads},
          {"created_unix_ns", i.created_unix_ns},
          {"command_line", i.command_line},
          {"iterations_from", i.iterations_from}};
}

// Per-iteration device activity (analyzer/iteration_activity.h); null for a run without kernels.
ordered_json activity_json(const IterationActivityReport* r) {
  if (r == nullptr || r->empty()) return nullptr;
  ordered_json rows = ordered_json::array();
  for (const IterationActivity& a : r->iterations) {
    const bool delay = a.launched > 0;
    rows.push_back(
        {{"iteration", a.iteration},
         {"start_ns", a.start_ns},
         {"span_ns", a.span_ns},
         {"busy_ns", a.busy_ns},
         {"idle_ns", a.idle_ns},
         {"idle_share_of_span", a.idle_share()},
         {"activities", a.activities},
         {"launched", a.launched},
         {"launch_delay_p50_ns", delay ? ordered_json(a.launch_delay_p50_ns) : ordered_json(nullptr)},
         {"launch_delay_max_ns", delay ? ordered_json(a.launch_delay_max_ns) : ordered_json(nullptr)},
         {"bound", to_string(a.bound)}});
  }
  return {
      {"clock", "device (span, busy, idle); launch delay: kernel start - end of its launch call"},
      {"bound_rule", bound_rule_text()},
      {"iterations", std::move(rows)},
      {"idle_share_p50", r->idle_share_p50},
      {"idle_share_max", r->idle_share_max},
      {"worst_idle_iteration", r->worst_idle_iteration},
      {"launch_delay_p50_ns", r->any_launch ? ordered_json(r->launch_delay_p50_ns) : ordered_json(nullptr)},
      {"launch_delay_max_ns", r->any_launch ? ordered_json(r->launch_delay_max_ns) : ordered_json(nullptr)},
      {"host_bound", r->host_bound},
      {"blocked", r->blocked}};
}

ordered_json figures_json(const MemoryFigures& f) {
  return {{"allocated_bytes", f.allocated},
          {"freed_bytes", f.freed},
          {"net_bytes", f.net()},
          {"allocations", f.allocations},
          {"frees", f.frees},
          {"peak_allocated_bytes", f.peak < 0 ? ordered_json(nullptr) : ordered_json(f.peak)}};
}

// Memory per device, module and op (analyzer/memory_usage.h); null for a run without memory events.
ordered_json memory_json(const MemoryUsage* m, const RunSummary& s) {
  if (m == nullptr || m->empty()) return nullptr;
  ordered_json devices = ordered_json::array();
  for (std::size_t d = 0; d < m->devices.size(); ++d) {
    ordered_json row = {{"device", memory_device_name(m->devices[d])}};
    row.update(figures_json(m->device_totals[d]));
    row["outside_every_op"] = figures_json(m->unattributed[d]);
    devices.push_back(std::move(row));
  }
  ordered_json modules = ordered_json::array();
  for (const MemoryModuleRow& r : m->modules) {
    modules.push_back({{"path", s.modules[r.module].path},
                       {"device", memory_device_name(m->devices[r.device])},
                       {"self", figures_json(r.self)},
                       {"total", figures_json(r.total)}});
  }
  ordered_json ops = ordered_json::array();
  for (const MemoryOpRow& r : m->ops) {
    ops.push_back({{"name", r.name},
                   {"device", memory_device_name(m->devices[r.device])},
                   {"calls", r.ops},
                   {"self", figures_json(r.self)},
                   {"total", figures_json(r.total)}});
  }
  return {{"clock", "host timestamps"},    {"convention", memory_convention_text(*m, s.iterations)},
          {"events", m->events},           {"devices", std::move(devices)},
          {"modules", std::move(modules)}, {"ops", std::move(ops)}};
}

ordered_json param_json(const ParamCount& c) {
  return {{"tensors", c.tensors}, {"elements", c.elements}, {"bytes", c.bytes}};
}

ordered_json modules_json(const RunData& run, const RunSummary& s) {
  ordered_json modules = ordered_json::array();
  const std::vector<ModuleParams> params = module_params(s, run.params);
  for (std::size_t i = 0; i < s.modules.size(); ++i) {
    const ModuleSummary& m = s.modules[i];
    modules.push_back(
        {{"path", m.path},
         {"type", m.type},
         {"depth", m.depth},
         {"parent", m.parent < 0 ? ordered_json(nullptr)
                                 : ordered_json(s.modules[static_cast<std::size_t>(m.parent)].path)},
         {"calls", m.calls},
         {"self", cost_json(m.self, s.tensor_factor)},
         {"inclusive", cost_json(m.inclusive, s.tensor_factor)},
         {"time_ns", {{"self", stats_json(m.self_time)}, {"inclusive", stats_json(m.inclusive_time)}}},
         {"gpu_time_ns", s.has_kernels ? stats_json(m.gpu_time) : ordered_json(nullptr)},
         {"comm_time_ns", m.comm_time_ns},
         {"flops_complete", m.flops_complete},
         {"unknown_time_share", m.unknown_time_share},
         {"share_flops", m.share_flops},
         {"share_time", m.share_time},
         {"device_rates", s.has_kernels ? rates_json(m.rates, m.gpu_time.mean, true) : ordered_json(nullptr)},
         {"params", params.empty() ? ordered_json(nullptr)
                                   : ordered_json{{"own", param_json(params[i].own)},
                                                  {"total", param_json(params[i].total)}}}});
  }
  return modules;
}

ordered_json top_ops_json(const ReportView& view) {
  ordered_json top = ordered_json::array();
  for (const TopOpView& row : view.top_ops) {
    const auto& op = *row.op;
    top.push_back({{"name", op.name},
                   {"module", op.module_path},
                   {"calls", op.calls},
                   {"flops", op.flops},
                   {"flops_known", row.flops_known},
                   {"bytes", op.bytes},
                   {"time_ns", op.time_ns},
                   {"device_time_ns", op.device_time_ns},
                   {"flops_source", op.flops_source},
                   {"share", view.share_denominator_ns > 0 ? ordered_json(row.share) : ordered_json(nullptr)},
                   {"device_rates", rates_json(op.rates, op.device_time_ns, row.flops_known)}});
  }
  return top;
}

ordered_json op_groups_json(const RunData& run, const RunSummary& s) {
  ordered_json groups = ordered_json::array();
  for (const auto& g : group_ops(run, s.iterations, s.peak)) {
    ordered_json args = ordered_json::array();
    for (const auto& a : g.args) args.push_back(arg_json(a));
    groups.push_back({{"module", g.module_path},
                      {"name", g.name},
                      {"signature", g.signature},
                      {"inputs", std::move(args)},
                      {"flops_source", to_string(g.source)},
                      {"depth", g.depth},
                      {"calls", g.calls},
                      {"flops", g.flops},
                      {"macs", g.macs},
                      {"bytes_read", g.bytes_read},
                      {"bytes_written", g.bytes_written},
                      {"time_ns", g.time_ns},
                      {"device_time_ns", g.device_time_ns},
                      {"device_rates", rates_json(g.rates, g.device_time_ns, g.source != FlopsSource::kNone)},
                      {"note", g.note}});
  }
  return groups;
}

ordered_json kernels_json(const RunData& run, const RunSummary& s) {
  ordered_json kernels = ordered_json::array();
  for (const auto& r : kernel_table(run)) {
    kernels.push_back({{"name", r.name},
                       {"category", r.category},
                       {"count", r.count},
                       {"device_time_ns", r.device_time_ns},
                       {"grid", r.grid},
                       {"block", r.block},
                       {"launch_config_varies", r.launch_config_varies},
                       {"flops", r.flops},
                       {"bytes", r.bytes},
                       {"unknown_count", r.unknown_count},
                       {"has_counters", r.has_counters},
                       {"measured_flops", r.measured.flops},
                       {"measured_tensor_flops", tensor_flops_json(r.tensor_flops, s.tensor_factor)},
                       {"dram_bytes", r.measured.dram_bytes},
                       {"dram_bytes_read", split_json(r.measured.dram_read, r.measured.dram_unsplit)},
                       {"dram_bytes_written", split_json(r.measured.dram_written, r.measured.dram_unsplit)},
                       {"tensor_pipe_instructions", r.measured.tensor_inst},
                       {"module", r.module_path}});
  }
  return kernels;
}

ordered_json coverage_json(const RunSummary& s, const CoverageView& view) {
  ordered_json gaps = ordered_json::array();
  for (const auto& g : s.coverage_gaps) {
    gaps.push_back({{"name", g.name},
                    {"count", g.count},
                    {"time_ns", g.time_ns},
                    {"share_of_time", g.share_of_time},
                    {"device_time_ns", g.device_time_ns},
                    {"share_of_device_time", g.share_of_device_time},
                    {"note", g.note}});
  }
  const auto& cov = s.coverage;
  return {{"ops_total", s.ops_total},
          {"ops_with_formula", s.ops_with_formula},
          {"every_op_has_formula", view.every_op_has_formula},
          {"text", view.sentence},
          {"flops_complete", cov.flops_complete},
          {"known_device_time_share", s.has_kernels ? ordered_json(cov.known_device_share) : nullptr},
          {"unknown_device_time_share",
           s.has_kernels ? ordered_json(1 - cov.known_device_share) : ordered_json(nullptr)},
          {"unlinked_device_time_share", s.has_kernels ? ordered_json(cov.unlinked_device_share) : nullptr},
          {"known_host_time_share", cov.known_host_share},
          {"gaps", std::move(gaps)}};
}

ordered_json timeline_json(const Timeline& tl) {
  ordered_json timeline = ordered_json::array();
  for (const auto* list : {&tl.devices, &tl.streams}) {
    for (const auto& t : *list) {
      timeline.push_back({{"device", t.device},
                          {"stream", t.stream < 0 ? ordered_json(nullptr) : ordered_json(t.stream)},
                          {"activities", t.activities},
                          {"span_ns", t.span_ns},
                          {"sum_ns", t.sum_ns},
                          {"busy_ns", t.busy_ns},
                          {"idle_ns", t.idle_ns},
                          {"overlap_ns", t.overlap_ns},
                          {"compute_busy_ns", t.compute_busy_ns},
                          {"communication_busy_ns", t.communication_busy_ns},
                          {"compute_comm_overlap_ns", t.compute_comm_overlap_ns},
                          {"gaps", t.gaps},
                          {"gap_p50_ns", t.gap_p50_ns},
                          {"gap_max_ns", t.gap_max_ns}});
    }
  }
  return timeline;
}

// The whole run's roofline; null without a peak or without device time.
ordered_json roofline_json(const RunSummary& s) {
  if (!s.peak || !s.has_kernels) return nullptr;
  const auto& r = s.roofline;
  return {{"peak",
           {{"name", s.peak->name},
            {"flops_per_s", s.peak->flops_per_s},
            {"bytes_per_s", s.peak->bytes_per_s},
            {"source", s.peak->source}}},
          {"achieved_flops_per_s", r.achieved_flops_per_s},
          {"achieved_bytes_per_s", r.achieved_bytes_per_s},
          {"intensity", r.intensity},
          {"attainable_flops_per_s", r.attainable_flops_per_s},
          {"memory_bound", r.memory_bound},
          {"fraction_of_attainable", r.fraction_of_attainable}};
}

ordered_json quality_json(const std::vector<QualityIssue>& issues) {
  ordered_json quality = ordered_json::array();
  for (const auto& q : issues) {
    quality.push_back({{"code", std::string(q.id())},
                       {"what", std::string(q.text())},
                       {"count", q.count},
                       {"severity", to_string(q.severity)},
                       {"detail", q.detail}});
  }
  return quality;
}

}  // namespace

Status check_report_json_size(const std::string& path, const RunSummary& s) {
  const std::uint64_t limit = input_limits().max_module_iteration_cells;
  const std::uint64_t cells =
      static_cast<std::uint64_t>(s.modules.size()) * static_cast<std::uint64_t>(std::max(1, s.iterations));
  if (cells <= limit) return {};
  return InvalidArgument(path + ": " + std::to_string(s.modules.size()) + " modules x " +
                         std::to_string(s.iterations) + " iterations is more than the limit of " +
                         std::to_string(limit) +
                         " module x iteration values in a JSON report (--max-cells raises it)");
}

std::string render_report_json(const RunData& run, const RunSummary& s, const ReportOptions& o,
                               const CandidateReport* candidates, const CandidateVerifications* verified) {
  ordered_json j;
  j["schema"] = "flopscope.report";
  j["version"] = kReportJsonVersion;
  j["run"] = run_json(run.info);
  j["units"] = {{"flops", "FLOPs per iteration"}, {"bytes", "bytes per iteration"}, {"time", "nanoseconds"}};
  j["iterations"] = s.iterations;
  j["total"] = cost_json(s.total, s.tensor_factor);
  j["iteration_time_ns"] = stats_json(s.iteration_time);
  j["iteration_gpu_time_ns"] = s.has_kernels ? stats_json(s.iteration_gpu_time) : ordered_json(nullptr);
  j["iteration_activity"] = activity_json(o.activity);
  j["memory"] = memory_json(o.memory, s);
  j["modules"] = modules_json(run, s);
  const ReportView view = make_report_view(s, o.top_ops);  // one rule for every format
  j["top_ops_share_of"] = to_string(view.op_share_of);
  j["top_ops"] = top_ops_json(view);
  j["op_groups"] = op_groups_json(run, s);
  if (o.kernels) {
    j["kernels"] = kernels_json(run, s);
    // The table and the op totals are one amount of work: where the part without a compute kernel went.
    const KernelWorkTotals t = kernel_work_totals(run);
    j["kernel_work"] = {{"op_flops", t.op_flops},
                        {"op_bytes", t.op_bytes},
                        {"on_kernels_flops", t.on_kernels_flops},
                        {"on_kernels_bytes", t.on_kernels_bytes},
                        {"without_kernel_flops", t.without_kernel_flops},
                        {"without_kernel_bytes", t.without_kernel_bytes},
                        {"ops_without_kernel", t.ops_without_kernel}};
  }
  j["coverage"] = coverage_json(s, view.coverage);
  j["timeline"] = timeline_json(s.timeline);
  j["orphan_kernels"] = {{"kernels", s.orphans.kernels}, {"time_ns", s.orphans.time_ns}};
  j["roofline"] = roofline_json(s);
  const auto& a = s.attribution;
  j["attribution"] = {{"kernels", a.kernels},
                      {"kernels_with_op", a.kernels_with_op},
                      {"kernels_with_module", a.kernels_with_module},
                      {"kernel_time_ns", a.kernel_time_ns},
                      {"kernel_time_attributed_ns", a.kernel_time_attributed_ns}};
  j["data_quality"] = quality_json(s.quality);
  if (candidates != nullptr) j["candidates"] = candidates_json(*candidates, verified);
  return j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

}  // namespace flopscope::cli
