#include "analyzer/flops/registry.h"

#include <algorithm>

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

FlopsResult FlopsRegistry::evaluate(std::string_view op_name, std::span<const OpArg> args) const {
  auto it = formulas_.find(op_name);
  if (it == formulas_.end()) return {};
  FlopsResult r = it->second(args);
  if (r.known && !r.estimate) {
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
