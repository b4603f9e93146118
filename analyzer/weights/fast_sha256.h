// SHA-256 of tensor bytes at memory speed: the x86 SHA extensions when the CPU has them (checked at run
// time), else db/model's portable Sha256. Both give the same digests; weights files are hashed in full,
// so the hash decides whether `weights` keeps up with the disk.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>

#include "db/model/sha256.h"

namespace flopscope {

class FastSha256 {
 public:
  FastSha256();
  void update(const void* data, std::size_t size);
  std::string hex_digest();

  static bool hardware_available();

 private:
  void blocks(const std::uint8_t* p, std::size_t n);

  bool hw_;
  Sha256 soft_;
  std::array<std::uint32_t, 8> state_;
  std::array<std::uint8_t, 64> buf_{};
  std::size_t buf_len_ = 0;
  std::uint64_t total_ = 0;
};

// Compression of `blocks` 64-byte blocks with the SHA extensions (sha256_ni.cpp, built with -msha).
void sha256_ni_blocks(std::uint32_t state[8], const std::uint8_t* data, std::size_t blocks);

}  // namespace flopscope
