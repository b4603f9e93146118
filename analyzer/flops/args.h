// Helpers for formulas: shapes, element counts, sizes, concrete scalar arguments and result builders.
//
// Argument conventions (every capture path follows them; see docs/flops.md):
//  - args are the op's inputs in schema order, as RecordFunction / Kineto "Input Dims" list them;
//  - a Tensor[] argument is passed as consecutive tensor args (flattened); when its shapes were not
//    recorded it is one non-tensor arg with an empty value;
//  - out= variants carry the out tensor(s) after the positional arguments.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

#include "analyzer/flops/registry.h"
#include "db/model/dtype.h"
#include "db/model/records.h"

namespace flopscope::flops {

using Shape = std::vector<std::int64_t>;
using Args = std::span<const OpArg>;

inline double numel(std::span<const std::int64_t> shape) {
  double n = 1;
  for (auto d : shape) n *= static_cast<double>(d);
  return n;
}

// Element size of a tensor argument; unknown dtypes count 4 bytes (float32) and evaluate() marks the
// result as an estimate.
inline int element_size(const OpArg& a) {
  int size = dtype_size(a.dtype);
  return size > 0 ? size : 4;
}

// Bytes of a tensor argument; 0 for non-tensors.
inline double tensor_bytes(const OpArg& a) {
  if (!a.is_tensor) return 0;
  return numel(a.shape) * element_size(a);
}

inline const OpArg* arg(Args args, std::size_t i) {
  return i < args.size() ? &args[i] : nullptr;
}

inline bool is_tensor(Args args, std::size_t i) {
  return i < args.size() && args[i].is_tensor;
}

// The text of argument i, "" when absent.
inline std::string_view value_at(Args args, std::size_t i) {
  return i < args.size() ? std::string_view(args[i].value) : std::string_view();
}

// Per-dimension value of an int[] argument such as stride: a single value applies to every dimension;
// fallback when the list is empty or too short.
inline std::int64_t per_dim(const std::vector<std::int64_t>& v, std::size_t i, std::int64_t fallback) {
  if (v.empty()) return fallback;
  return v.size() == 1 ? v[0] : (i < v.size() ? v[i] : fallback);
}

// Sum of tensor bytes over args[begin, end).
double bytes_in(Args args, std::size_t begin, std::size_t end);

// Parses "[1, 2, 3]", "(1, 2)", "2" or "1,2" into integers. nullopt when the text is empty or not a list.
std::optional<std::vector<std::int64_t>> parse_int_list(std::string_view text);
std::optional<std::vector<double>> parse_double_list(std::string_view text);
std::optional<std::int64_t> parse_int(std::string_view text);
std::optional<double> parse_double(std::string_view text);
std::optional<bool> parse_bool(std::string_view text);
// "None", "" and "[]"-free helpers: true when the text says no value was given.
bool is_none(std::string_view text);

// A ScalarType argument ("6", "torch.float16", "float16", "Half") as a flopscope dtype name; "" when the
// text does not name one.
std::string_view parse_scalar_type(std::string_view text);

// Numpy-style broadcast of two shapes; nullopt when they do not broadcast.
std::optional<Shape> broadcast(std::span<const std::int64_t> a, std::span<const std::int64_t> b);

// Normalises a possibly negative dimension index; nullopt when out of range.
std::optional<std::size_t> norm_dim(std::int64_t dim, std::size_t rank);

// A finished result.
inline FlopsResult result(double flops, double macs, double read, double written, std::string_view note,
                          bool estimate = false) {
  FlopsResult r;
  r.known = true;
  r.flops = flops;
  r.macs = macs;
  r.bytes_read = read;
  r.bytes_written = written;
  r.note = note;
  r.estimate = estimate;
  return r;
}

}  // namespace flopscope::flops
