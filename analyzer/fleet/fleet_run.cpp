#include "analyzer/fleet/fleet_run.h"

#include <nlohmann/json.hpp>

#include "analyzer/diff/op_diff.h"
#include "analyzer/diff/weights_join.h"
#include "db/model/sha256.h"

namespace flopscope {
namespace {

std::string shape_text(const std::vector<std::int64_t>& shape) {
  std::string s = "[";
  for (std::size_t i = 0; i < shape.size(); ++i) s += (i ? "," : "") + std::to_string(shape[i]);
  return s + "]";
}

nlohmann::json quantiles_json(const FleetQuantiles& q) {
  if (!q.known) return nullptr;
  return {q.p50, q.p90, q.p99};
}

// The canonical form the content key hashes: every stored number and name, in a fixed order.
std::string canonical(const FleetRun& r) {
  nlohmann::json j;
  j["info"] = {r.info.tool_version,    to_string(r.info.source_kind),
               r.info.source_path,     r.info.source_sha256,
               r.info.device,          r.info.host,
               r.info.input_spec,      r.info.iterations,
               r.info.warmup,          r.info.threads,
               r.info.created_unix_ns, r.info.command_line};
  j["totals"] = {r.iterations, r.has_kernels,          r.flops,
                 r.bytes,      quantiles_json(r.host), quantiles_json(r.device)};
  for (const auto& m : r.modules) {
    j["modules"].push_back({m.path, m.type, m.depth, m.calls, m.flops, m.bytes, quantiles_json(m.host),
                            quantiles_json(m.device), m.weight_state, m.params, m.param_bytes});
  }
  for (const auto& o : r.ops) {
    j["ops"].push_back({o.module_path, o.name, o.signature, o.calls, o.flops, o.bytes, o.flops_known,
                        quantiles_json(o.host), quantiles_json(o.device)});
  }
  for (const auto& p : r.params) {
    j["params"].push_back(
        {p.name, p.dtype, p.shape, p.state, p.sha256, p.numel, p.bytes, p.max_abs, p.nonzero_fraction, p.l2});
  }
  return j.dump();
}

}  // namespace

FleetQuantiles fleet_quantiles(const LatencyStats& stats, bool known) {
  FleetQuantiles q;
  q.known = known && stats.samples > 0;
  if (q.known) {
    q.p50 = stats.p50;
    q.p90 = stats.p90;
    q.p99 = stats.p99;
  }
  return q;
}

FleetRun build_fleet_run(const RunData& run, const RunSummary& s) {
  FleetRun r;
  r.info = run.info;
  r.iterations = s.iterations;
  r.has_kernels = s.has_kernels;
  r.flops = s.total.flops;
  r.bytes = s.total.bytes();
  r.host = fleet_quantiles(s.iteration_time, true);
  r.device = fleet_quantiles(s.iteration_gpu_time, s.has_kernels);

  ParamIndex params = index_params(run, {}, 0);
  for (const auto& m : s.modules) {
    FleetModuleRow row;
    row.path = m.path;
    row.type = m.type;
    row.depth = m.depth;
    row.calls = m.calls;
    row.flops = m.inclusive.flops;
    row.bytes = m.inclusive.bytes();
    row.host = fleet_quantiles(m.inclusive_time, true);
    row.device = fleet_quantiles(m.gpu_time, s.has_kernels);
    auto it = params.by_module.find(m.path);
    if (it != params.by_module.end() && it->second.state != WeightState::kNone) {
      row.weight_state = to_string(it->second.state);
      row.params = it->second.params;
      row.param_bytes = it->second.bytes;
    }
    r.modules.push_back(std::move(row));
  }

  // Host and device time come from two aggregations over the same rows (same keys, same order of keys).
  OpRows host = aggregate_op_rows(run, {}, false);
  OpRows device = aggregate_op_rows(run, {}, true);
  const double per = 1.0 / std::max(1, host.iterations);
  for (const auto& o : host.rows) {
    FleetOpRow row;
    row.module_path = o.module_path;
    row.name = o.name;
    row.signature = o.signature;
    row.calls = o.calls * per;
    row.flops = o.flops * per;
    row.bytes = o.bytes * per;
    row.flops_known = o.counted;
    row.host = fleet_quantiles(latency_stats(o.time), o.calls > 0);
    auto it = device.index.find(o.module_path + '\x1f' + o.name + '\x1f' + o.signature);
    if (it != device.index.end()) {
      row.device = fleet_quantiles(latency_stats(device.rows[it->second].time), s.has_kernels);
    }
    r.ops.push_back(std::move(row));
  }
  for (const auto& p : run.params) {
    FleetParamRow row;
    row.name = p.name;
    row.dtype = p.dtype;
    row.shape = shape_text(p.shape);
    row.state = to_string(param_state(p, 0));
    row.sha256 = p.sha256;
    row.numel = p.numel;
    row.bytes = p.bytes;
    row.max_abs = p.max_abs;
    row.nonzero_fraction = p.nonzero_fraction;
    row.l2 = p.l2;
    r.params.push_back(std::move(row));
  }
  r.content_key = sha256_hex(canonical(r));
  return r;
}

}  // namespace flopscope
