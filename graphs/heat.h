// Cost colouring: a decade heat scale over a metric (FLOPs, time, bytes) and the fixed diff palette.
#pragma once

#include <array>
#include <string>
#include <vector>

#include "graphs/graph_diff.h"

namespace flopscope::graphs {

// Five buckets, one per decade below the largest value: bucket 0 holds values above max/10, bucket 4 values
// at or below max/10^4. Log scale because op costs span orders of magnitude.
class HeatScale {
 public:
  static constexpr int kBuckets = 5;
  explicit HeatScale(const std::vector<double>& values);

  bool empty() const { return max_ <= 0; }
  double max() const { return max_; }
  // Bucket of a value, -1 for zero or negative (drawn uncoloured).
  int bucket(double value) const;
  // Lower bound of bucket b (values > lower bound, except the last bucket which includes it).
  double lower_bound(int b) const;
  static const char* fill(int bucket);        // "#bd0026"... ; "#ffffff" for -1
  static const char* font_color(int bucket);  // white on the two darkest fills

 private:
  double max_ = 0;
};

// Sequential ramp for the latency heatmap, t in [0, 1] (clamped; NaN as 0): dark blue -> teal -> yellow,
// viridis-like (perceptually ordered, colour-blind safe). The GUI and the headless renderer both use it.
struct Rgb {
  int r = 0, g = 0, b = 0;
  std::string hex() const;  // "#rrggbb"
};
Rgb latency_ramp(double t);

struct DiffStyle {
  const char* border;
  const char* fill;
};
DiffStyle diff_style(DiffStatus status);

// "1.23 MFLOPs", "12.3 µs", "4.5 MB": the core's formatter (analyzer/format.h) for a metric.
std::string format_metric(double value, CostMetric metric);
const char* metric_name(CostMetric metric);  // "FLOPs", "host time", "bytes"

}  // namespace flopscope::graphs
