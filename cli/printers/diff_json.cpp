// The versioned JSON form of the diff (schema documented in docs/diff-json.md).
#include <cmath>
#include <nlohmann/json.hpp>

#include "cli/printers/diff_report.h"

namespace flopscope::cli {
namespace {

using nlohmann::json;

json num(double v) { return std::isfinite(v) ? json(v) : json(nullptr); }

json side(const SideCost& s) {
  if (!s.present) return nullptr;
  return {{"ops", s.ops},
          {"kernels", s.kernels},
          {"flops", s.flops},
          {"flops_known", s.flops_known},
          {"bytes", s.bytes},
          {"time_p50_ns", num(s.time.p50)},
          {"time_mean_ns", num(s.time.mean)},
          {"time_samples", s.time.samples},
          {"share_time", num(s.share_time)},
          {"share_flops", num(s.share_flops)}};
}

json delta(const MedianDifference& t, bool significant) {
  return {{"diff_ns", num(t.diff)}, {"ci_low_ns", num(t.ci_low)}, {"ci_high_ns", num(t.ci_high)},
          {"significant", significant}};
}

json weights(const WeightSide& w) {
  return {{"state", to_string(w.state)}, {"params", w.params}, {"numel", w.numel},
          {"bytes", w.bytes},            {"zeroed", w.zeroed}, {"erased", w.erased}};
}

json run(const RunInfo& i, const RunTotals& t) {
  return {{"source_path", i.source_path}, {"source_sha256", i.source_sha256}, {"device", i.device},
          {"input_spec", i.input_spec},   {"iterations", t.iterations},      {"ops", t.ops},
          {"kernels", t.kernels},         {"flops", t.flops},                {"bytes", t.bytes},
          {"time_p50_ns", num(t.time.p50)}, {"params", t.params},            {"param_bytes", t.param_bytes}};
}

json metric(double a, double b) {
  return {{"a", a}, {"b", b}, {"delta", b - a}, {"relative", a != 0 ? num((b - a) / a) : json(nullptr)}};
}

json counts(const int c[4]) {
  json j = json::object();
  for (int s = 0; s < 4; ++s) j[to_string(static_cast<DiffStatus>(s))] = c[s];
  return j;
}

json verdict_counts(const RunDiff& d) {
  json j = json::object();
  for (int v = 0; v < kVerdictCount; ++v) j[to_string(static_cast<Verdict>(v))] = d.modules_by_verdict[v];
  return j;
}

}  // namespace

std::string render_diff_json(const RunDiff& d, const std::vector<GateResult>& gates, const DiffReportOptions&) {
  json j;
  j["schema"] = "flopscope.diff";
  j["version"] = kDiffJsonVersion;
  j["a"] = run(d.info_a, d.a);
  j["b"] = run(d.info_b, d.b);
  j["time_basis"] = d.gpu_time ? "gpu" : "host";
  json e2e = {{"flops", metric(d.a.flops, d.b.flops)},
              {"bytes", metric(d.a.bytes, d.b.bytes)},
              {"ops", metric(d.a.ops, d.b.ops)},
              {"kernels", metric(d.a.kernels, d.b.kernels)}};
  if (d.a.measured() || d.b.measured()) {  // hardware counters: present only when a kernel was measured
    e2e["measured_flops"] = metric(d.a.measured_flops, d.b.measured_flops);
    e2e["dram_bytes"] = metric(d.a.dram_bytes, d.b.dram_bytes);
  }
  e2e["time_p50_ns"] = metric(d.a.time.p50, d.b.time.p50);
  e2e["time_p50_ns"].update(delta(d.time_diff, d.time_significant));
  e2e["time_status"] = to_string(d.time_status);
  j["end_to_end"] = e2e;
  json modules = json::array();
  for (const auto& m : d.modules) {
    modules.push_back({{"path", m.path},
                       {"type", m.type},
                       {"type_b", m.type_b},
                       {"depth", m.depth},
                       {"path_b", m.path_b},
                       {"status", to_string(m.verdict)},
                       {"structural_status", to_string(m.status)},
                       {"time_status", to_string(m.time_status)},
                       {"verdict", to_string(m.verdict)},
                       {"verdict_text", m.verdict_text},
                       {"headline", m.headline},
                       {"a", side(m.a)},
                       {"b", side(m.b)},
                       {"time_delta", delta(m.time_diff, m.time_significant)},
                       {"weights_a", weights(m.weights_a)},
                       {"weights_b", weights(m.weights_b)},
                       {"weights_changed", m.weights_changed},
                       {"discarded_by", m.discarded_by}});
  }
  j["modules"] = std::move(modules);
  json ops = json::array();
  for (const auto& o : d.ops) {
    ops.push_back({{"module_path", o.module_path},
                   {"name", o.name},
                   {"signature", o.signature},
                   {"status", to_string(o.status)},
                   {"time_status", to_string(o.time_status)},
                   {"a", side(o.a)},
                   {"b", side(o.b)},
                   {"time_delta", delta(o.time_diff, o.time_significant)}});
  }
  j["ops"] = std::move(ops);
  json params = json::array();
  for (const auto& p : d.params) {
    params.push_back({{"name", p.name},
                      {"state_a", to_string(p.state_a)},
                      {"state_b", to_string(p.state_b)},
                      {"bytes_a", p.bytes_a},
                      {"bytes_b", p.bytes_b},
                      {"changed", p.changed}});
  }
  j["params"] = std::move(params);
  json g = json::array();
  bool passed = true;
  for (const auto& r : gates) {
    g.push_back({{"name", r.name}, {"passed", r.passed}, {"message", r.message}});
    passed = passed && r.passed;
  }
  j["gates"] = std::move(g);
  j["passed"] = passed;
  j["summary"] = {{"sentence", d.sentence.text()},
                  {"modules", verdict_counts(d)},
                  {"modules_time", {{"slower", d.modules_slower}, {"faster", d.modules_faster}}},
                  {"ops", counts(d.ops_by_status)},
                  {"common_modules", d.common_modules}};
  j["maps"] = d.maps;
  j["warnings"] = d.warnings;
  return j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

}  // namespace flopscope::cli
