#include "collector/cupti/metric_roles.h"

namespace flopscope::gpu {
namespace {

bool starts_with(std::string_view s, std::string_view p) {
  return s.substr(0, p.size()) == p;
}

}  // namespace

MetricRole metric_role(std::string_view m) {
  // Strip a rollup suffix: the roles hold for .sum only (other rollups are not FLOP counts).
  if (m.size() < 4 || m.substr(m.size() - 4) != ".sum") return MetricRole::kOther;
  std::string_view base = m.substr(0, m.size() - 4);
  for (std::string_view prefix :
       {"smsp__sass_thread_inst_executed_op_", "sm__sass_thread_inst_executed_op_"}) {
    if (!starts_with(base, prefix)) continue;
    std::string_view op = base.substr(prefix.size());
    if (op == "dadd_pred_on" || op == "dmul_pred_on") return MetricRole::kFlopsFp64;
    if (op == "dfma_pred_on") return MetricRole::kFlopsFp64x2;
    if (op == "fadd_pred_on" || op == "fmul_pred_on") return MetricRole::kFlopsFp32;
    if (op == "ffma_pred_on") return MetricRole::kFlopsFp32x2;
    if (op == "hadd_pred_on" || op == "hmul_pred_on") return MetricRole::kFlopsFp16;
    if (op == "hfma_pred_on") return MetricRole::kFlopsFp16x2;
    return MetricRole::kOther;
  }
  if (starts_with(base, "sm__ops_path_tensor_")) return MetricRole::kTensorOps;
  if (base == "dram__bytes_read") return MetricRole::kDramRead;
  if (base == "dram__bytes_write") return MetricRole::kDramWrite;
  if (base == "lts__t_bytes") return MetricRole::kL2Bytes;
  if (base == "gpu__time_duration") return MetricRole::kDuration;
  return MetricRole::kOther;
}

const char* to_string(MetricRole role) {
  switch (role) {
    case MetricRole::kFlopsFp64:
      return "fp64 flops";
    case MetricRole::kFlopsFp64x2:
      return "fp64 flops (x2: fma)";
    case MetricRole::kFlopsFp32:
      return "fp32 flops";
    case MetricRole::kFlopsFp32x2:
      return "fp32 flops (x2: fma)";
    case MetricRole::kFlopsFp16:
      return "fp16 flops";
    case MetricRole::kFlopsFp16x2:
      return "fp16 flops (x2: fma)";
    case MetricRole::kTensorOps:
      return "tensor ops";
    case MetricRole::kDramRead:
      return "dram bytes read";
    case MetricRole::kDramWrite:
      return "dram bytes written";
    case MetricRole::kL2Bytes:
      return "l2 bytes";
    case MetricRole::kDuration:
      return "duration (ns)";
    case MetricRole::kOther:
      break;
  }
  return "other";
}

void apply_metric_values(const std::vector<std::string>& metrics, const std::vector<double>& values,
                         KernelRecord& k) {
  for (std::size_t i = 0; i < metrics.size() && i < values.size(); ++i) {
    double v = values[i];
    switch (metric_role(metrics[i])) {
      case MetricRole::kFlopsFp64:
        k.flops_fp64 += v;
        break;
      case MetricRole::kFlopsFp64x2:
        k.flops_fp64 += 2 * v;
        break;
      case MetricRole::kFlopsFp32:
        k.flops_fp32 += v;
        break;
      case MetricRole::kFlopsFp32x2:
        k.flops_fp32 += 2 * v;
        break;
      case MetricRole::kFlopsFp16:
        k.flops_fp16 += v;
        break;
      case MetricRole::kFlopsFp16x2:
        k.flops_fp16 += 2 * v;
        break;
      case MetricRole::kTensorOps:
        k.tensor_ops += v;
        break;
      case MetricRole::kDramRead:
        k.dram_bytes_read += v;
        break;
      case MetricRole::kDramWrite:
        k.dram_bytes_written += v;
        break;
      case MetricRole::kL2Bytes:
        k.l2_bytes += v;
        break;
      case MetricRole::kDuration:
      case MetricRole::kOther:
        break;
    }
  }
  k.dram_bytes = k.dram_bytes_read + k.dram_bytes_written;
  k.has_counters = true;
}

}  // namespace flopscope::gpu
