#include "graphs/heat.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "analyzer/diff/verdict_palette.h"
#include "analyzer/format.h"

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

Rgb latency_ramp(double t) {
  static constexpr std::array<std::array<int, 3>, 5> kStops{
      {{68, 1, 84}, {59, 82, 139}, {33, 145, 140}, {94, 201, 98}, {253, 231, 37}}};
  if (!std::isfinite(t)) t = 0;
  t = std::clamp(t, 0.0, 1.0) * (kStops.size() - 1);
  auto i = std::min<std::size_t>(static_cast<std::size_t>(t), kStops.size() - 2);
  double f = t - static_cast<double>(i);
  auto mix = [&](std::size_t c) {
    return static_cast<int>(std::lround(kStops[i][c] + (kStops[i + 1][c] - kStops[i][c]) * f));
  };
  return {mix(0), mix(1), mix(2)};
}

std::string Rgb::hex() const {
  char buf[8];
  std::snprintf(buf, sizeof buf, "#%02x%02x%02x", r & 0xff, g & 0xff, b & 0xff);
  return buf;
}

// The core's palette: a VANISHED op is drawn as a VANISHED module is coloured everywhere else.
DiffStyle diff_style(DiffStatus status) {
  const VerdictColor c = diff_status_color(status);
  return {c.text, c.fill};
}

std::string format_metric(double value, CostMetric metric) {
  switch (metric) {
    case CostMetric::kFlops:
      return flops_text(value);
    case CostMetric::kBytes:
      return bytes_text(value);
    case CostMetric::kTime:
      break;
  }
  return time_text(value);
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
