#include "analyzer/flops/registry.h"

namespace flopscope {

const FlopsRegistry& FlopsRegistry::builtin() {
  static const FlopsRegistry registry = [] {
    FlopsRegistry r;
    register_matmul_family(r);
    register_conv_family(r);
    register_attention_family(r);
    return r;
  }();
  return registry;
}

void FlopsRegistry::add(std::string_view op_name, FlopsFormula formula) {
  formulas_[std::string(op_name)] = formula;
}

bool FlopsRegistry::has(std::string_view op_name) const { return formulas_.find(op_name) != formulas_.end(); }

FlopsResult FlopsRegistry::evaluate(std::string_view op_name, std::span<const OpArg> args) const {
  auto it = formulas_.find(op_name);
  if (it == formulas_.end()) return {};
  return it->second(args);
}

}  // namespace flopscope
