// Internal to the SHA-256 implementation: the round constants and the x86 SHA-extension compression
// function (sha256_ni.cpp, the only file built with -msha), which Sha256 uses after a CPUID check.
#pragma once

#include <cstddef>
#include <cstdint>

namespace flopscope {

alignas(16) extern const std::uint32_t kSha256Round[64];

// True when the CPU has the SHA extensions (and SSSE3/SSE4.1) and this build carries sha256_ni.cpp.
bool sha256_hardware_available();

// Compresses `blocks` 64-byte blocks into `state` with the SHA extensions.
void sha256_ni_blocks(std::uint32_t state[8], const std::uint8_t* data, std::size_t blocks);

}  // namespace flopscope
