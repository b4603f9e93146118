#include "analyzer/diff/units.h"

#include <fmt/format.h>

#include <cmath>

namespace flopscope {

std::string si(double value, const char* unit) {
  static constexpr const char* kPrefix[] = {"", "K", "M", "G", "T", "P"};
  int p = 0;
  double v = value;
  while (std::fabs(v) >= 1000 && p < 5) {
    v /= 1000;
    ++p;
  }
  if (p == 0) return fmt::format("{:.0f} {}", v, unit);
  return fmt::format("{:.3g} {}{}", v, kPrefix[p], unit);
}

std::string flops_text(double flops) {
  return si(flops, "FLOPs");
}
std::string bytes_text(double bytes) {
  return si(bytes, "B");
}

std::string time_text(double ns) {
  if (ns >= 1e9) return fmt::format("{:.3f} s", ns / 1e9);
  if (ns >= 1e6) return fmt::format("{:.3f} ms", ns / 1e6);
  if (ns >= 1e3) return fmt::format("{:.1f} us", ns / 1e3);
  return fmt::format("{:.0f} ns", ns);
}

std::string percent_text(double fraction) {
  return fmt::format("{:.1f}%", 100 * fraction);
}

std::string format_count(double n) {
  if (n == std::floor(n) && std::fabs(n) < 1e15) return fmt::format("{}", static_cast<long long>(n));
  return fmt::format("{:.1f}", n);
}

std::string format_signed_percent(double fraction) { return fmt::format("{:+.1f}%", fraction * 100); }

}  // namespace flopscope
