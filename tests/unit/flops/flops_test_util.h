// Builders for op arguments in tests: T("float32", {2, 3}) is a tensor, S("1") a scalar or list.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "analyzer/flops/registry.h"

namespace flopscope::testing {

inline OpArg T(std::string dtype, std::vector<std::int64_t> shape) {
  OpArg a;
  a.is_tensor = true;
  a.dtype = std::move(dtype);
  a.shape = std::move(shape);
  return a;
}

inline OpArg F(std::vector<std::int64_t> shape) {
  return T("float32", std::move(shape));
}

inline OpArg S(std::string value) {
  OpArg a;
  a.value = std::move(value);
  return a;
}

inline FlopsResult eval(std::string_view op, const std::vector<OpArg>& args) {
  return FlopsRegistry::builtin().evaluate(op, args);
}

}  // namespace flopscope::testing
