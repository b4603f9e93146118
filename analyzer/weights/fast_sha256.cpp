#include "analyzer/weights/fast_sha256.h"

#include <cstring>

#if defined(__x86_64__)
#include <cpuid.h>
#endif

namespace flopscope {

bool FastSha256::hardware_available() {
#if !defined(__x86_64__)
  return false;
#else
  static const bool available = [] {
    unsigned a = 0, b = 0, c = 0, d = 0;
    if (__get_cpuid_count(7, 0, &a, &b, &c, &d) == 0) return false;
    bool sha = (b & (1u << 29)) != 0;
    if (__get_cpuid(1, &a, &b, &c, &d) == 0) return false;
    bool sse41 = (c & (1u << 19)) != 0, ssse3 = (c & (1u << 9)) != 0;
    return sha && sse41 && ssse3;
  }();
  return available;
#endif
}

void FastSha256::blocks(const std::uint8_t* p, std::size_t n) {
#if defined(__x86_64__)
  sha256_ni_blocks(state_.data(), p, n);
#else
  (void)p;
  (void)n;  // hw_ is never true off x86-64
#endif
}

FastSha256::FastSha256()
    : hw_(hardware_available()),
      state_{0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19} {}

void FastSha256::update(const void* data, std::size_t size) {
  if (!hw_) {
    soft_.update(data, size);
    return;
  }
  const auto* p = static_cast<const std::uint8_t*>(data);
  total_ += size;
  if (buf_len_ > 0) {
    std::size_t take = std::min(size, 64 - buf_len_);
    std::memcpy(buf_.data() + buf_len_, p, take);
    buf_len_ += take;
    p += take;
    size -= take;
    if (buf_len_ < 64) return;
    blocks(buf_.data(), 1);
    buf_len_ = 0;
  }
  blocks(p, size / 64);
  p += size / 64 * 64;
  size %= 64;
  std::memcpy(buf_.data(), p, size);
  buf_len_ = size;
}

std::string FastSha256::hex_digest() {
  if (!hw_) return soft_.hex_digest();
  // Padding: 0x80, zeros to 56 mod 64, then the bit length big-endian.
  std::uint64_t bits = total_ * 8;
  std::uint8_t tail[128] = {0x80};
  std::size_t pad = (buf_len_ < 56 ? 56 : 120) - buf_len_;
  for (int i = 0; i < 8; ++i) tail[pad + static_cast<std::size_t>(i)] = static_cast<std::uint8_t>(bits >> (56 - 8 * i));
  update(tail, pad + 8);
  static constexpr char kHex[] = "0123456789abcdef";
  std::string s;
  for (std::uint32_t word : state_) {
    for (int shift = 28; shift >= 0; shift -= 4) s.push_back(kHex[(word >> shift) & 15]);
  }
  return s;
}

}  // namespace flopscope
