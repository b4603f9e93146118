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

struct DiffStyle {
  const char* border;
  const char* fill;
};
DiffStyle diff_style(DiffState state);

// "1.23 MFLOP", "12.3 µs", "4.5 MB": three significant digits, SI prefixes, locale-independent.
std::string format_metric(double value, CostMetric metric);
std::string format_count(double value, const char* unit);
const char* metric_name(CostMetric metric);  // "FLOPs", "host time", "bytes"

}  // namespace flopscope::graphs
