// SHA-256 (FIPS 180-4), for model files, traces and tensor contents: identities that survive renames.
// Uses the x86 SHA extensions when the CPU has them (checked at run time): weights files are hashed in
// full, so the hash decides whether `weights` keeps up with the disk.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "db/model/status.h"

namespace flopscope {

class Sha256 {
 public:
  Sha256();
  void update(const void* data, std::size_t size);
  void update(std::string_view s) { update(s.data(), s.size()); }
  std::array<std::uint8_t, 32> digest();
  std::string hex_digest();

 private:
  void block(const std::uint8_t* p);                  // portable compression of one block
  void blocks(const std::uint8_t* p, std::size_t n);  // n blocks, SHA extensions when available
  bool hw_;
  std::array<std::uint32_t, 8> h_;
  std::array<std::uint8_t, 64> buf_{};
  std::size_t buf_len_ = 0;
  std::uint64_t total_ = 0;
};

std::string sha256_hex(std::string_view data);
StatusOr<std::string> sha256_file(const std::string& path);

}  // namespace flopscope
