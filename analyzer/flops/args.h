// Helpers for formulas: shapes, element counts, sizes and concrete scalar arguments.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

#include "db/model/dtype.h"
#include "db/model/records.h"

namespace flopscope::flops {

using Shape = std::vector<std::int64_t>;

inline double numel(std::span<const std::int64_t> shape) {
  double n = 1;
  for (auto d : shape) n *= static_cast<double>(d);
  return n;
}

// Bytes of a tensor argument; 0 for non-tensors. Unknown dtypes count 4 bytes (float32) and the caller
// should mark the result as an estimate.
inline double tensor_bytes(const OpArg& a) {
  if (!a.is_tensor) return 0;
  int size = dtype_size(a.dtype);
  return numel(a.shape) * (size > 0 ? size : 4);
}

inline int element_size(const OpArg& a) {
  int size = dtype_size(a.dtype);
  return size > 0 ? size : 4;
}

inline const OpArg* arg(std::span<const OpArg> args, std::size_t i) {
  return i < args.size() ? &args[i] : nullptr;
}

inline bool is_tensor(std::span<const OpArg> args, std::size_t i) {
  return i < args.size() && args[i].is_tensor;
}

// Parses "[1, 2, 3]", "(1, 2)", "2" or "1,2" into integers. nullopt when the text is empty or not a list.
std::optional<std::vector<std::int64_t>> parse_int_list(std::string_view text);
std::optional<std::int64_t> parse_int(std::string_view text);
std::optional<double> parse_double(std::string_view text);
std::optional<bool> parse_bool(std::string_view text);

// Numpy-style broadcast of two shapes; nullopt when they do not broadcast.
std::optional<Shape> broadcast(std::span<const std::int64_t> a, std::span<const std::int64_t> b);

}  // namespace flopscope::flops
