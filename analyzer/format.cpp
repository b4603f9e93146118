#include "analyzer/format.h"

#include <array>
#include <charconv>
#include <cmath>

namespace flopscope {
namespace {

// A negative value that rounds to zero prints as "0", never "-0" ("-0 FLOPs" saved reads as a change).
std::string without_negative_zero(std::string text) {
  const auto nonzero = text.find_first_of("123456789"), exponent = text.find_first_of("eE");
  if (text.starts_with('-') && (nonzero == std::string::npos || nonzero > exponent)) text.erase(0, 1);
  return text;
}

// Three significant digits, shortest form ("12", "1.5", "0.25").
std::string three_digits(double value) {
  char buf[32];
  auto res = std::to_chars(buf, buf + sizeof buf, value, std::chars_format::general, 3);
  return without_negative_zero(std::string(buf, res.ptr));
}

// One decimal, locale-independent (the GUI runs under the user's LC_NUMERIC; printf would write "41,5").
std::string fixed1(double value) {
  char buf[64];
  auto res = std::to_chars(buf, buf + sizeof buf, value, std::chars_format::fixed, 1);
  return without_negative_zero(std::string(buf, res.ptr));
}

}  // namespace

std::string si_text(double value, const char* unit) {
  static constexpr std::array<const char*, 7> kPrefix{"", "k", "M", "G", "T", "P", "E"};
  if (!std::isfinite(value))
    return (std::isnan(value) ? "nan " : value > 0 ? "inf " : "-inf ") + std::string(unit);
  double magnitude = std::fabs(value);
  std::size_t p = 0;
  // 999.5 and not 1000: a value that rounds to 1000 at three digits takes the next prefix ("1 k", not
  // "1e+03").
  while (magnitude >= 999.5 && p + 1 < kPrefix.size()) {
    magnitude /= 1000;
    value /= 1000;
    ++p;
  }
  return three_digits(value) + " " + kPrefix[p] + unit;
}

std::string flops_text(double flops) {
  return si_text(flops, "FLOPs");
}

std::string bytes_text(double bytes) {
  return si_text(bytes, "B");
}

std::string time_text(double ns) {
  if (!std::isfinite(ns)) return si_text(ns, "s");
  double magnitude = std::fabs(ns);
  if (magnitude >= 999.5e6) return three_digits(ns / 1e9) + " s";
  if (magnitude >= 999.5e3) return three_digits(ns / 1e6) + " ms";
  if (magnitude >= 999.5) return three_digits(ns / 1e3) + " \xC2\xB5s";
  return three_digits(ns) + " ns";
}

std::string count_text(double n) {
  if (n == std::floor(n) && std::fabs(n) < 1e15) return std::to_string(static_cast<long long>(n));
  return fixed1(n);
}

std::string percent_text(double fraction) {
  return fixed1(100 * fraction) + "%";
}

std::string signed_percent_text(double fraction) {
  std::string p = fixed1(100 * fraction);
  return (p.starts_with('-') ? "" : "+") + p + "%";
}

}  // namespace flopscope
