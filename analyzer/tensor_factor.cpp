#include "analyzer/tensor_factor.h"

#include <array>
#include <cctype>
#include <charconv>
#include <string>

namespace flopscope {
namespace {

enum class Arch { kVolta, kTuring, kAmpere, kAda, kHopper, kBlackwell };

// Indexed by Arch. On Volta the only tensor instruction is HMMA.884: a warp's 16x16x16 FP16 product
// (8,192 FLOPs) is 16 of them.
constexpr std::array<TensorPipeFactor, 6> kFactors{{
    {"Volta", 512, "every tensor-pipe instruction is an HMMA.884 step of 512 FLOPs"},
    {"Turing", 0, "HMMA.1688, HMMA.884 and IMMA differ in work per instruction"},
    {"Ampere", 0, "HMMA.16816, HMMA.1688, TF32, DMMA and IMMA differ in work per instruction"},
    {"Ada", 0, "HMMA.16816, HMMA.1688 and IMMA differ in work per instruction"},
    {"Hopper", 0, "warpgroup GMMA instructions vary in N; sm__ops_path_tensor_* counts the math ops"},
    {"Blackwell", 0, "tensor instructions vary in shape; sm__ops_path_tensor_* counts the math ops"},
}};

TensorPipeFactor factor_of(Arch a) {
  return kFactors[static_cast<std::size_t>(a)];
}

std::optional<Arch> arch_of_capability(int major, int minor) {
  if (major == 7) return minor == 5 ? Arch::kTuring : Arch::kVolta;
  if (major == 8) return minor == 9 ? Arch::kAda : Arch::kAmpere;
  if (major == 9) return Arch::kHopper;
  if (major == 10 || major == 12) return Arch::kBlackwell;
  return std::nullopt;
}

// "7.0" / "70" after a capability prefix.
std::optional<Arch> capability_after(const std::string& s, std::string_view prefix) {
  auto at = s.find(prefix);
  if (at == std::string::npos) return std::nullopt;
  const char* p = s.data() + at + prefix.size();
  const char* end = s.data() + s.size();
  int major = 0, minor = 0;
  auto r = std::from_chars(p, end, major);
  if (r.ec != std::errc()) return std::nullopt;
  if (r.ptr < end && *r.ptr == '.') {
    if (std::from_chars(r.ptr + 1, end, minor).ec != std::errc()) return std::nullopt;
  } else if (major >= 10 && r.ptr - p >= 2) {  // "sm_80", "sm_100"
    minor = major % 10;
    major /= 10;
  }
  return arch_of_capability(major, minor);
}

}  // namespace

std::optional<TensorPipeFactor> tensor_pipe_factor(std::string_view device) {
  std::string s(device);
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  for (std::string_view prefix : {"compute capability ", "sm_"}) {
    if (auto a = capability_after(s, prefix)) return factor_of(*a);
  }
  // Device names as CUDA reports them; the first match wins (more specific names first).
  struct Name {
    std::string_view text;
    Arch arch;
  };
  static constexpr std::array<Name, 17> kNames{{
      {"v100", Arch::kVolta},
      {"titan v", Arch::kVolta},
      {"gv100", Arch::kVolta},
      {"t4", Arch::kTuring},
      {"rtx 20", Arch::kTuring},
      {"titan rtx", Arch::kTuring},
      {"a100", Arch::kAmpere},
      {"a800", Arch::kAmpere},
      {"rtx 30", Arch::kAmpere},
      {"l40", Arch::kAda},
      {"rtx 40", Arch::kAda},
      {"h100", Arch::kHopper},
      {"h200", Arch::kHopper},
      {"h800", Arch::kHopper},
      {"gh200", Arch::kHopper},
      {"b200", Arch::kBlackwell},
      {"gb200", Arch::kBlackwell},
  }};
  for (const auto& n : kNames) {
    if (s.find(n.text) != std::string::npos) return factor_of(n.arch);
  }
  return std::nullopt;
}

}  // namespace flopscope
