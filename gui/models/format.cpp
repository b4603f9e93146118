#include "gui/models/format.h"

#include <cmath>
#include <cstdio>

namespace flopscope::gui {

namespace {

std::string scaled(double v, const char* const units[], int n, double step, const char* suffix) {
  int i = 0;
  double a = std::abs(v);
  while (i + 1 < n && a >= step) {
    a /= step;
    v /= step;
    ++i;
  }
  char buf[64];
  std::snprintf(buf, sizeof buf, a >= 100 || i == 0 ? "%.0f %s%s" : "%.2f %s%s", v, units[i], suffix);
  return buf;
}

}  // namespace

std::string format_flops(double flops) {
  static const char* const u[] = {"", "K", "M", "G", "T", "P"};
  return scaled(flops, u, 6, 1000, "FLOP");
}

std::string format_bytes(double bytes) {
  static const char* const u[] = {"", "K", "M", "G", "T"};
  return scaled(bytes, u, 5, 1000, "B");
}

std::string format_ns(double ns) {
  char buf[64];
  double a = std::abs(ns);
  if (a >= 1e9)
    std::snprintf(buf, sizeof buf, "%.2f s", ns / 1e9);
  else if (a >= 1e6)
    std::snprintf(buf, sizeof buf, "%.2f ms", ns / 1e6);
  else if (a >= 1e3)
    std::snprintf(buf, sizeof buf, "%.1f \u00b5s", ns / 1e3);
  else
    std::snprintf(buf, sizeof buf, "%.0f ns", ns);
  return buf;
}

std::string format_count(double n) {
  char buf[64];
  if (n == std::floor(n) && std::abs(n) < 1e15)
    std::snprintf(buf, sizeof buf, "%.0f", n);
  else
    std::snprintf(buf, sizeof buf, "%.2f", n);
  return buf;
}

}  // namespace flopscope::gui
