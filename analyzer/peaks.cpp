#include "analyzer/peaks.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <charconv>
#include <cmath>
#include <string>

namespace flopscope {
namespace {

struct Row {
  std::string_view match;  // lower-case substrings that must all occur, separated by '+'
  std::string_view name;
  double tflops, tbytes;
  std::string_view source;
};

// More specific rows first.
constexpr std::array<Row, 9> kPeaks = {{
    {"h100+pcie", "H100 PCIe", 756, 2.0, "NVIDIA H100 Tensor Core GPU datasheet (BF16 dense, PCIe)"},
    {"h100+nvl", "H100 NVL", 835, 3.9, "NVIDIA H100 Tensor Core GPU datasheet (BF16 dense, NVL)"},
    {"h100", "H100 SXM", 989.4, 3.35, "NVIDIA H100 Tensor Core GPU datasheet (BF16 dense, SXM5)"},
    {"h200", "H200 SXM", 989.4, 4.8, "NVIDIA H200 Tensor Core GPU datasheet (BF16 dense, SXM)"},
    {"b200", "B200", 2250, 8.0, "NVIDIA HGX B200 datasheet (FP16/BF16 dense per GPU)"},
    {"a100+40gb", "A100 40GB", 312, 1.555, "NVIDIA A100 Tensor Core GPU datasheet (BF16 dense, 40GB)"},
    {"a100", "A100 80GB", 312, 2.039, "NVIDIA A100 Tensor Core GPU datasheet (BF16 dense, 80GB SXM)"},
    {"mi300x", "MI300X", 1307.4, 5.3, "AMD Instinct MI300X datasheet (BF16 dense)"},
    {"mi300", "MI300X", 1307.4, 5.3, "AMD Instinct MI300X datasheet (BF16 dense)"},
}};

bool matches(const std::string& lower, std::string_view pattern) {
  while (!pattern.empty()) {
    auto plus = pattern.find('+');
    auto part = pattern.substr(0, plus);
    if (lower.find(part) == std::string::npos) return false;
    if (plus == std::string_view::npos) break;
    pattern.remove_prefix(plus + 1);
  }
  return true;
}

bool parse_number(std::string_view s, double& out) {
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
  return ec == std::errc() && p == s.data() + s.size() && std::isfinite(out) && out > 0;
}

}  // namespace

std::optional<DevicePeak> peak_for_device(std::string_view device) {
  std::string lower(device);
  for (auto& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  for (const auto& r : kPeaks) {
    if (matches(lower, r.match)) {
      return DevicePeak{std::string(r.name), r.tflops * 1e12, r.tbytes * 1e12, std::string(r.source)};
    }
  }
  return std::nullopt;
}

StatusOr<DevicePeak> parse_peak(std::string_view text) {
  auto colon = text.find(':');
  DevicePeak p;
  if (colon == std::string_view::npos || !parse_number(text.substr(0, colon), p.flops_per_s) ||
      !parse_number(text.substr(colon + 1), p.bytes_per_s)) {
    return InvalidArgument("--peak: expected FLOPS:BYTES_PER_S, e.g. 989e12:3.35e12");
  }
  p.name = "user peak";
  p.source = "--peak";
  return p;
}

Roofline roofline(double flops, double bytes, double device_ns, const DevicePeak& peak) {
  Roofline r;
  if (device_ns > 0) {
    r.achieved_flops_per_s = flops / (device_ns * 1e-9);
    r.achieved_bytes_per_s = bytes / (device_ns * 1e-9);
  }
  r.intensity = bytes > 0 ? flops / bytes : 0;
  if (bytes > 0 && peak.bytes_per_s > 0) {
    r.attainable_flops_per_s = std::min(peak.flops_per_s, r.intensity * peak.bytes_per_s);
    r.memory_bound = r.intensity < peak.ridge();
  } else {
    r.attainable_flops_per_s = peak.flops_per_s;
  }
  r.fraction_of_attainable =
      r.attainable_flops_per_s > 0 ? r.achieved_flops_per_s / r.attainable_flops_per_s : 0;
  return r;
}

Roofline device_rates(double flops, double bytes, double device_ns, const std::optional<DevicePeak>& peak) {
  if (device_ns <= 0) return {};
  if (peak && bytes > 0) return roofline(flops, bytes, device_ns, *peak);  // no traffic counted: no intensity
  Roofline r;
  r.achieved_flops_per_s = flops / (device_ns * 1e-9);
  r.achieved_bytes_per_s = bytes / (device_ns * 1e-9);
  r.intensity = bytes > 0 ? flops / bytes : 0;
  return r;
}

}  // namespace flopscope
