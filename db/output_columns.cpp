#include "db/output_columns.h"

#include <cstring>

namespace flopscope {
namespace {

bool stored_as_float32(const std::string& dtype) {
  return dtype == "float32" || dtype == "float16" || dtype == "bfloat16";
}

std::int64_t element_count(const std::vector<std::int64_t>& shape) {
  std::int64_t n = 1;
  for (auto d : shape) n *= d;
  return n;
}

}  // namespace

std::string encode_output_argmax(const std::vector<std::int64_t>& argmax) {
  return std::string(reinterpret_cast<const char*>(argmax.data()), argmax.size() * sizeof(std::int64_t));
}

std::string encode_output_values(const OutputTensor& t) {
  if (!stored_as_float32(t.dtype))
    return std::string(reinterpret_cast<const char*>(t.values.data()), t.values.size() * sizeof(double));
  std::vector<float> f(t.values.begin(), t.values.end());
  return std::string(reinterpret_cast<const char*>(f.data()), f.size() * sizeof(float));
}

Status decode_output_argmax(std::string_view blob, OutputTensor& t) {
  if (blob.size() % sizeof(std::int64_t) != 0)
    return Corrupt("output_tensor " + t.name + ": argmax blob of " + std::to_string(blob.size()) + " bytes");
  t.argmax.resize(blob.size() / sizeof(std::int64_t));
  if (!blob.empty()) std::memcpy(t.argmax.data(), blob.data(), blob.size());
  return {};
}

Status decode_output_values(std::string_view blob, OutputTensor& t) {
  const std::size_t size = stored_as_float32(t.dtype) ? sizeof(float) : sizeof(double);
  const std::int64_t n = element_count(t.shape);
  if (n < 0 || blob.size() != static_cast<std::size_t>(n) * size)
    return Corrupt("output_tensor " + t.name + ": value blob of " + std::to_string(blob.size()) +
                   " bytes for " + std::to_string(n) + " " + t.dtype + " elements");
  t.values.resize(static_cast<std::size_t>(n));
  if (size == sizeof(double)) {
    if (n > 0) std::memcpy(t.values.data(), blob.data(), blob.size());
  } else {
    std::vector<float> f(static_cast<std::size_t>(n));
    if (n > 0) std::memcpy(f.data(), blob.data(), blob.size());
    t.values.assign(f.begin(), f.end());
  }
  return {};
}

}  // namespace flopscope
