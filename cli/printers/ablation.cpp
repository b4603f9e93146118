#include "cli/printers/ablation.h"

#include <fmt/format.h>

#include "analyzer/diff/gates.h"
#include "cli/printers/units.h"
#include "db/model/text_escape.h"

namespace flopscope::cli {
namespace {

std::string shape_text(const std::string& dtype, const std::vector<std::int64_t>& shape) {
  return fmt::format("{}[{}]", dtype, fmt::join(shape, ","));
}

std::string optional_text(const std::optional<double>& v, const char* format = "{:.3g}") {
  return v ? fmt::format(fmt::runtime(format), *v) : "unknown";
}

nlohmann::ordered_json optional_json(const std::optional<double>& v) {
  return v ? nlohmann::ordered_json(*v) : nlohmann::ordered_json(nullptr);
}

std::string never_called(int opaque_calls) {
  return "forward() never calls it: nothing replaced" +
         (opaque_calls > 0 ? fmt::format(" (unless through one of the {} calls of a module interface, whose "
                                         "instance cannot be told)",
                                         opaque_calls)
                           : std::string());
}

double share(double part, double total) {
  return total > 0 ? part / total : 0;
}

}  // namespace

AblationGate output_change_gate(const OutputComparison& c, double max_output_change) {
  // diff's own gate, on a diff that holds only the outputs: one rule for both commands.
  RunDiff outputs_only;
  outputs_only.outputs = c;
  GateOptions options;
  options.max_output_change = max_output_change;
  const GateResult r = evaluate_gates(outputs_only, options).front();
  const int code = r.error ? 2 : r.passed ? 0 : 1;
  return {max_output_change, code,
          std::string(code == 0   ? "passed: "
                      : code == 1 ? "FAILED: "
                                  : "not comparable: ") +
              r.message};
}

std::string render_ablation_table(const AblationReport& r) {
  std::string out =
      fmt::format("ablate {} on {}\n", terminal_safe(r.model_path, false), terminal_safe(r.inputs, false));
  for (const auto& m : r.modules) {
    out += fmt::format("  {} ({}) = {}: {}\n", terminal_safe(m.site.path, false),
                       terminal_safe(m.type, false), to_string(m.site.mode),
                       m.site.call_sites == 0 ? never_called(r.opaque_calls)
                                              : count_of(m.site.call_sites, "call site") + " replaced");
  }
  out += terminal_safe(output_line(r.outputs), false) + "\n";
  for (const auto& t : r.outputs.tensors) {
    if (!t.comparable) {
      out += fmt::format("  {}: not comparable: {}\n", terminal_safe(t.name, false),
                         terminal_safe(t.problem, false));
      continue;
    }
    out += fmt::format("  {} {}: max |Δ| {} (relative {}), RMS Δ {}, cosine {}", terminal_safe(t.name, false),
                       shape_text(t.dtype_a, t.shape_a), optional_text(t.max_abs_delta),
                       optional_text(t.max_rel_change), optional_text(t.rms_delta),
                       optional_text(t.cosine, "{:.6f}"));
    if (t.top1_total > 0) out += fmt::format(", top-1 agreement {}/{}", t.top1_agree, t.top1_total);
    if (t.mismatched > 0) out += fmt::format(", {} elements differ", t.mismatched);
    if (t.nan_b + t.inf_b > 0) out += fmt::format(", ablated: {} NaN, {} Inf", t.nan_b, t.inf_b);
    out += "\n";
  }
  double flops = 0, bytes = 0, time = 0;
  for (const auto& m : r.modules) {
    flops += m.flops;
    bytes += m.bytes;
    time += m.time_p50_ns;
  }
  out += fmt::format(
      "work it would save per iteration (from a profile of the unedited model, {}): {} ({} of "
      "FLOPs), {} ({} of bytes), {} P50 host time ({} of time)\n",
      count_of(r.profile_iterations, "iteration"), flops_text(flops),
      percent_text(share(flops, r.total_flops)), bytes_text(bytes), percent_text(share(bytes, r.total_bytes)),
      time_text(time), percent_text(share(time, r.total_time_p50_ns)));
  out += fmt::format("instances still running as written: {}\n", r.still_running.size());
  if (r.gate)
    out += fmt::format("gate --max-output-change {:g}: {}\n", r.gate->max_output_change, r.gate->text);
  return out;
}

nlohmann::ordered_json output_comparison_json(const OutputComparison& c) {
  nlohmann::ordered_json tensors = nlohmann::ordered_json::array();
  for (const auto& t : c.tensors) {
    tensors.push_back({{"name", t.name},
                       {"dtype", t.dtype_a},
                       {"shape", t.shape_a},
                       {"dtype_ablated", t.dtype_b},
                       {"shape_ablated", t.shape_b},
                       {"comparable", t.comparable},
                       {"problem", t.problem},
                       {"exact", t.exact},
                       {"max_abs_delta", optional_json(t.max_abs_delta)},
                       {"max_rel_change", optional_json(t.max_rel_change)},
                       {"rms_delta", optional_json(t.rms_delta)},
                       {"cosine", optional_json(t.cosine)},
                       {"top1_agree", t.top1_agree},
                       {"top1_total", t.top1_total},
                       {"mismatched", t.mismatched},
                       {"nan_ablated", t.nan_b},
                       {"inf_ablated", t.inf_b}});
  }
  return {{"line", output_line(c)},
          {"status", to_string(c.status)},
          {"reason", c.reason},
          {"calls_compared", c.calls_compared},
          {"max_rel_change", optional_json(c.max_rel_change)},
          {"exact", c.exact},
          {"non_finite", c.non_finite},
          {"top1_agree", c.top1_agree},
          {"top1_total", c.top1_total},
          {"tensors", std::move(tensors)}};
}

nlohmann::ordered_json ablation_json(const AblationReport& r) {
  nlohmann::ordered_json modules = nlohmann::ordered_json::array();
  double flops = 0, bytes = 0, time = 0;
  for (const auto& m : r.modules) {
    modules.push_back({{"path", m.site.path},
                       {"type", m.type},
                       {"mode", to_string(m.site.mode)},
                       {"call_sites", m.site.call_sites},
                       {"flops", m.flops},
                       {"bytes", m.bytes},
                       {"time_p50_ns", m.time_p50_ns}});
    flops += m.flops;
    bytes += m.bytes;
    time += m.time_p50_ns;
  }
  nlohmann::ordered_json j = {{"model", r.model_path},
                              {"inputs", r.inputs},
                              {"modules", std::move(modules)},
                              {"still_running", r.still_running},
                              {"opaque_calls", r.opaque_calls},
                              {"outputs", output_comparison_json(r.outputs)},
                              {"saving",
                               {{"source", "profile of the unedited model"},
                                {"iterations", r.profile_iterations},
                                {"flops", flops},
                                {"bytes", bytes},
                                {"time_p50_ns", time},
                                {"share_flops", share(flops, r.total_flops)},
                                {"share_bytes", share(bytes, r.total_bytes)},
                                {"share_time", share(time, r.total_time_p50_ns)}}}};
  if (r.gate) {
    j["gate"] = {{"max_output_change", r.gate->max_output_change},
                 {"passed", r.gate->exit_code == 0},
                 {"exit_code", r.gate->exit_code},
                 {"text", r.gate->text}};
  }
  return j;
}

}  // namespace flopscope::cli
