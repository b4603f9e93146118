#include "analyzer/weights/tensor_stats.h"

#include <cmath>
#include <cstring>

#include "analyzer/weights/tensor_similarity.h"
#include "db/model/dtype.h"
#include "db/model/sha256.h"

namespace flopscope {

float half_to_float(std::uint16_t h) {
  std::uint32_t sign = static_cast<std::uint32_t>(h & 0x8000) << 16;
  std::uint32_t exp = (h >> 10) & 0x1f;
  std::uint32_t mant = h & 0x3ff;
  std::uint32_t bits = 0;
  if (exp == 0) {
    if (mant == 0) {
      bits = sign;
    } else {  // subnormal: value = mant * 2^-24
      float f = std::ldexp(static_cast<float>(mant), -24);
      return sign != 0 ? -f : f;
    }
  } else if (exp == 31) {
    bits = sign | 0x7f800000u | (mant << 13);
  } else {
    bits = sign | ((exp + 112) << 23) | (mant << 13);
  }
  float f = 0;
  std::memcpy(&f, &bits, 4);
  return f;
}

float bfloat16_to_float(std::uint16_t b) {
  std::uint32_t bits = static_cast<std::uint32_t>(b) << 16;
  float f = 0;
  std::memcpy(&f, &bits, 4);
  return f;
}

namespace {

enum class Decode { kF32, kF64, kF16, kBF16, kI8, kU8, kI16, kU16, kI32, kU32, kI64, kU64, kBool, kRaw };

Decode decoder(const std::string& dtype) {
  if (dtype == "float32") return Decode::kF32;
  if (dtype == "float64") return Decode::kF64;
  if (dtype == "float16") return Decode::kF16;
  if (dtype == "bfloat16") return Decode::kBF16;
  if (dtype == "int8") return Decode::kI8;
  if (dtype == "uint8") return Decode::kU8;
  if (dtype == "int16") return Decode::kI16;
  if (dtype == "uint16") return Decode::kU16;
  if (dtype == "int32") return Decode::kI32;
  if (dtype == "uint32") return Decode::kU32;
  if (dtype == "int64") return Decode::kI64;
  if (dtype == "uint64") return Decode::kU64;
  if (dtype == "bool") return Decode::kBool;
  return Decode::kRaw;
}

template <typename T>
T load(const std::uint8_t* p) {
  T v;
  std::memcpy(&v, p, sizeof(T));
  return v;
}

double value(Decode d, const std::uint8_t* p) {
  switch (d) {
    case Decode::kF32:
      return load<float>(p);
    case Decode::kF64:
      return load<double>(p);
    case Decode::kF16:
      return half_to_float(load<std::uint16_t>(p));
    case Decode::kBF16:
      return bfloat16_to_float(load<std::uint16_t>(p));
    case Decode::kI8:
      return load<std::int8_t>(p);
    case Decode::kU8:
      return load<std::uint8_t>(p);
    case Decode::kI16:
      return load<std::int16_t>(p);
    case Decode::kU16:
      return load<std::uint16_t>(p);
    case Decode::kI32:
      return load<std::int32_t>(p);
    case Decode::kU32:
      return load<std::uint32_t>(p);
    case Decode::kI64:
      return static_cast<double>(load<std::int64_t>(p));
    case Decode::kU64:
      return static_cast<double>(load<std::uint64_t>(p));
    case Decode::kBool:
      return p[0] != 0 ? 1 : 0;
    case Decode::kRaw:
      return 0;
  }
  return 0;
}

struct Accumulator {
  Decode d;
  int size;
  double atol;
  double sum_sq = 0;
  double max_abs = 0;
  std::int64_t nonzero = 0;
  bool nan = false;
  SketchBuilder sketch{};

  void add(const std::uint8_t* p) {
    if (d == Decode::kRaw) {
      for (int i = 0; i < size; ++i) {
        if (p[i] != 0) {
          ++nonzero;
          return;
        }
      }
      return;
    }
    double x = value(d, p);
    sketch.add(x);
    if (std::isnan(x)) {
      nan = true;
      ++nonzero;
      return;
    }
    double a = std::fabs(x);
    sum_sq += x * x;
    if (a > max_abs) max_abs = a;
    if (a > atol) ++nonzero;
  }

  // The contiguous float32 path is the common one and worth a tight loop.
  void add_range(const std::uint8_t* p, std::size_t count) {
    if (d == Decode::kF32) {
      // Independent lanes let the compiler vectorise without reassociating one running sum; a NaN
      // anywhere turns the sum of squares into NaN, which is how it is detected.
      constexpr std::size_t kLanes = 8;
      double sq[kLanes] = {};
      double sm[kLanes] = {};
      float mx[kLanes] = {};
      std::int64_t nz[kLanes] = {};
      const auto fatol = static_cast<float>(atol);
      std::size_t i = 0;
      for (; i + kLanes <= count; i += kLanes) {
        float x[kLanes];
        std::memcpy(x, p + 4 * i, sizeof x);
        for (std::size_t j = 0; j < kLanes; ++j) {
          float a = std::fabs(x[j]);
          sq[j] += static_cast<double>(x[j]) * x[j];
          sm[j] += x[j];
          mx[j] = a > mx[j] ? a : mx[j];
          nz[j] += !(a <= fatol) ? 1 : 0;
        }
      }
      add_sketch_f32(p, i);
      for (; i < count; ++i) add(p + 4 * i);
      for (std::size_t j = 0; j < kLanes; ++j) {
        sum_sq += sq[j];
        sketch.sum += sm[j];
        max_abs = std::max(max_abs, static_cast<double>(mx[j]));
        nonzero += nz[j];
      }
      if (std::isnan(sum_sq)) nan = true;
      return;
    }
    for (std::size_t i = 0; i < count; ++i) add(p + static_cast<std::size_t>(size) * i);
  }

  // The sketch buckets of `count` float32 elements (not the sum, which the caller's lanes keep): whole rows
  // of kSketchBuckets elements once the bucket index is back at 0, so each bucket is its own lane.
  void add_sketch_f32(const std::uint8_t* p, std::size_t count) {
    constexpr auto kRow = static_cast<std::size_t>(kSketchBuckets);
    double* b = sketch.buckets.data();
    auto at = [&](std::size_t i) { return load<float>(p + 4 * i); };
    std::size_t i = 0;
    for (; i < count && sketch.next != 0; ++i) {
      b[sketch.next] += at(i);
      if (++sketch.next == kSketchBuckets) sketch.next = 0;
    }
    for (; i + kRow <= count; i += kRow) {
      float x[kRow];
      std::memcpy(x, p + 4 * i, sizeof x);
      for (std::size_t k = 0; k < kRow; ++k) b[k] += x[k];
    }
    for (; i < count; ++i) {
      b[sketch.next] += at(i);
      if (++sketch.next == kSketchBuckets) sketch.next = 0;
    }
  }
};

}  // namespace

TensorInfo measure_tensor(const TensorLocation& t, const WeightsOptions& options) {
  TensorInfo info;
  info.name = t.name;
  info.dtype = t.dtype;
  info.shape = t.shape;
  info.note = t.note;
  int size = t.dtype.starts_with("float8_") ? 1 : dtype_size(t.dtype);
  info.numel = 1;
  for (auto s : t.shape) info.numel *= s;
  info.bytes = info.numel * size;
  if (t.placeholder || info.numel == 0) {
    info.state = TensorState::kErased;
    info.nonzero_fraction = 0;
    if (info.note.empty()) info.note = "zero-size tensor";
    return info;
  }
  Accumulator acc{decoder(t.dtype), size, options.atol};
  info.decoded = acc.d != Decode::kRaw;
  Sha256 sha;
  const std::uint8_t* base = t.storage.data() + t.offset * size;
  bool contiguous = true;
  if (!t.strides.empty()) {
    std::int64_t expect = 1;
    for (std::size_t i = t.shape.size(); i-- > 0;) {
      if (t.shape[i] != 1 && t.strides[i] != expect) contiguous = false;
      expect *= t.shape[i];
    }
  }
  if (contiguous) {
    // Chunks small enough to stay in cache between the statistics pass and the hash.
    constexpr std::size_t kChunk = 1 << 18;
    auto total = static_cast<std::size_t>(info.bytes);
    for (std::size_t off = 0; off < total; off += kChunk) {
      std::size_t n = std::min(kChunk, total - off);
      acc.add_range(base + off, n / static_cast<std::size_t>(size));
      if (options.hash) sha.update(base + off, n);
    }
  } else {
    // Row-major walk over a strided view (offsets were bounds-checked by the reader).
    std::vector<std::int64_t> index(t.shape.size(), 0);
    for (std::int64_t e = 0; e < info.numel; ++e) {
      std::int64_t off = 0;
      for (std::size_t i = 0; i < index.size(); ++i) off += index[i] * t.strides[i];
      const std::uint8_t* p = base + off * size;
      acc.add(p);
      if (options.hash) sha.update(p, static_cast<std::size_t>(size));
      for (std::size_t i = index.size(); i-- > 0;) {
        if (++index[i] < t.shape[i]) break;
        index[i] = 0;
      }
    }
  }
  info.l2 = info.decoded ? std::sqrt(acc.sum_sq) : 0;
  info.max_abs = info.decoded ? acc.max_abs : 0;
  if (acc.nan) {
    info.max_abs = std::nan("");
    info.note = "contains NaN";
  }
  if (!info.decoded) info.note = "values not decoded (" + t.dtype + "): zero test on raw bytes";
  info.nonzero_fraction = static_cast<double>(acc.nonzero) / static_cast<double>(info.numel);
  if (info.decoded) {
    info.sketch = std::move(acc.sketch.buckets);
    info.sum = acc.sketch.sum;
  }
  info.state = acc.nonzero == 0 ? TensorState::kZeroed : TensorState::kActive;
  if (options.hash) info.sha256 = sha.hex_digest();
  return info;
}

}  // namespace flopscope
