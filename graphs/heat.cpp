#include "graphs/heat.h"

#include <algorithm>
#include <charconv>
#include <cmath>

namespace flopscope::graphs {

HeatScale::HeatScale(const std::vector<double>& values) {
  for (double v : values) max_ = std::max(max_, v);
}

int HeatScale::bucket(double value) const {
  if (value <= 0 || max_ <= 0) return -1;
  double decades = std::log10(max_ / value);
  int b = static_cast<int>(std::floor(decades));
  return std::clamp(b, 0, kBuckets - 1);
}

double HeatScale::lower_bound(int b) const {
  return max_ / std::pow(10.0, b + 1);
}

const char* HeatScale::fill(int bucket) {
  static constexpr std::array<const char*, kBuckets> kFill{"#bd0026", "#f03b20", "#fd8d3c", "#fecc5c",
                                                           "#ffffb2"};
  return bucket < 0 || bucket >= kBuckets ? "#ffffff" : kFill[static_cast<std::size_t>(bucket)];
}

const char* HeatScale::font_color(int bucket) {
  return bucket == 0 || bucket == 1 ? "#ffffff" : "#000000";
}

DiffStyle diff_style(DiffState state) {
  switch (state) {
    case DiffState::kRemoved:
      return {"#d62728", "#fde0dd"};
    case DiffState::kAdded:
      return {"#2ca02c", "#e5f5e0"};
    case DiffState::kChanged:
      return {"#ff7f0e", "#fee6ce"};
    case DiffState::kSame:
      break;
  }
  return {"#777777", "#ffffff"};
}

std::string format_count(double value, const char* unit) {
  static constexpr std::array<const char*, 7> kPrefix{"", "k", "M", "G", "T", "P", "E"};
  double magnitude = std::fabs(value);
  std::size_t p = 0;
  while (magnitude >= 999.5 && p + 1 < kPrefix.size()) {
    magnitude /= 1000;
    value /= 1000;
    ++p;
  }
  char buf[32];
  auto res = std::to_chars(buf, buf + sizeof buf, value, std::chars_format::general, 3);
  std::string out(buf, res.ptr);
  out += ' ';
  out += kPrefix[p];
  out += unit;
  return out;
}

std::string format_metric(double value, CostMetric metric) {
  switch (metric) {
    case CostMetric::kFlops:
      return format_count(value, "FLOP");
    case CostMetric::kBytes:
      return format_count(value, "B");
    case CostMetric::kTime:
      break;
  }
  // Time in ns: pick ns, µs, ms or s.
  double magnitude = std::fabs(value);
  const char* unit = "ns";
  if (magnitude >= 999.5e6) {
    value /= 1e9;
    unit = "s";
  } else if (magnitude >= 999.5e3) {
    value /= 1e6;
    unit = "ms";
  } else if (magnitude >= 999.5) {
    value /= 1e3;
    unit = "\xC2\xB5s";  // µs
  }
  char buf[32];
  auto res = std::to_chars(buf, buf + sizeof buf, value, std::chars_format::general, 3);
  return std::string(buf, res.ptr) + " " + unit;
}

const char* metric_name(CostMetric metric) {
  switch (metric) {
    case CostMetric::kFlops:
      return "FLOPs";
    case CostMetric::kTime:
      return "host time (median)";
    case CostMetric::kBytes:
      return "bytes";
  }
  return "";
}

}  // namespace flopscope::graphs
