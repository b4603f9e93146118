#include "db/sketch_column.h"

#include <bit>
#include <cstdint>

#include "db/model/records.h"

namespace flopscope {

std::string encode_sketch(const std::vector<double>& sketch) {
  std::string out(sketch.size() * 8, '\0');
  char* p = out.data();
  for (double v : sketch) {
    const auto bits = std::bit_cast<std::uint64_t>(v);
    for (int b = 0; b < 8; ++b) *p++ = static_cast<char>((bits >> (8 * b)) & 0xff);
  }
  return out;
}

Status decode_sketch(std::string_view blob, std::vector<double>& out) {
  out.clear();
  if (blob.empty()) return {};
  if (blob.size() != static_cast<std::size_t>(kSketchBuckets) * 8) {
    return Corrupt("a content sketch of " + std::to_string(blob.size()) + " bytes (expected 0 or " +
                   std::to_string(kSketchBuckets * 8) + ")");
  }
  out.resize(static_cast<std::size_t>(kSketchBuckets));
  const auto* p = reinterpret_cast<const unsigned char*>(blob.data());
  for (double& v : out) {
    std::uint64_t bits = 0;
    for (int b = 0; b < 8; ++b) bits |= std::uint64_t{*p++} << (8 * b);
    v = std::bit_cast<double>(bits);
  }
  return {};
}

}  // namespace flopscope
