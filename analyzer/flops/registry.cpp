#include "analyzer/flops/registry.h"

#include <algorithm>
#include <cmath>

namespace flopscope {

const FlopsRegistry& FlopsRegistry::builtin() {
  static const FlopsRegistry registry = [] {
    FlopsRegistry r;
    register_matmul_family(r);
    register_conv_family(r);
    register_attention_family(r);
    register_normalization_family(r);
    register_softmax_family(r);
    register_activation_family(r);
    register_elementwise_family(r);
    register_reduction_family(r);
    register_pooling_family(r);
    register_data_movement_family(r);
    return r;
  }();
  return registry;
}

void FlopsRegistry::add(std::string_view op_name, FlopsFormula formula) {
  formulas_[std::string(op_name)] = formula;
}

bool FlopsRegistry::has(std::string_view op_name) const {
  return formulas_.find(op_name) != formulas_.end();
}

namespace {

// Shapes come from traces anyone can write: a negative dimension would give negative FLOPs (and could
// cancel a real regression under a gate), a huge one 1e56 FLOPs. Larger than any tensor a machine holds.
constexpr double kMaxElements = 1e15;
constexpr double kMaxOpCost = 1e21;  // FLOPs or bytes of one op

FlopsResult invalid(std::string_view note) {
  FlopsResult r;
  r.invalid_args = true;
  r.note = note;
  return r;
}

bool valid_cost(double v) {
  return std::isfinite(v) && v >= 0 && v <= kMaxOpCost;
}

}  // namespace

FlopsResult FlopsRegistry::evaluate(std::string_view op_name, std::span<const OpArg> args) const {
  auto it = formulas_.find(op_name);
  if (it == formulas_.end()) return {};
  for (const auto& a : args) {
    if (!a.is_tensor) continue;
    double n = 1;
    for (std::int64_t d : a.shape) {
      if (d < 0) return invalid("negative tensor dimension in the recorded shapes: FLOPs unknown");
      n *= static_cast<double>(d);
    }
    if (n > kMaxElements) return invalid("tensor shape too large to be real: FLOPs unknown");
  }
  FlopsResult r = it->second(args);
  if (r.known && !(valid_cost(r.flops) && valid_cost(r.macs) && valid_cost(r.bytes_read) &&
                   valid_cost(r.bytes_written))) {
    return invalid("arguments give negative, infinite or impossibly large FLOPs or bytes: FLOPs unknown");
  }
  if (!r.known) {
    r.note = "formula exists, but the recorded arguments do not fit it (shapes missing or inconsistent)";
    return r;
  }
  if (!r.estimate) {
    for (const auto& a : args) {
      if (a.is_tensor && a.dtype.empty()) {
        r.estimate = true;
        r.note = "element type not recorded: 4 bytes per element assumed";
        break;
      }
    }
  }
  return r;
}

std::vector<std::string> FlopsRegistry::names() const {
  std::vector<std::string> out;
  out.reserve(formulas_.size());
  for (const auto& [name, formula] : formulas_) out.push_back(name);
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace flopscope
