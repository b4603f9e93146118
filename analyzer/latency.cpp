#include "analyzer/latency.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <random>

namespace flopscope {

double percentile_sorted(std::span<const double> sorted, double q) {
  if (sorted.empty()) return 0;
  double pos = (q / 100.0) * static_cast<double>(sorted.size() - 1);
  auto lo = static_cast<std::size_t>(std::floor(pos));
  std::size_t hi = std::min(lo + 1, sorted.size() - 1);
  double frac = pos - static_cast<double>(lo);
  return sorted[lo] + (sorted[hi] - sorted[lo]) * frac;
}

LatencyStats latency_stats(std::vector<double> values) {
  LatencyStats s;
  s.samples = static_cast<int>(values.size());
  s.values = values;
  if (values.empty()) return s;
  std::sort(values.begin(), values.end());
  s.mean = std::accumulate(values.begin(), values.end(), 0.0) / static_cast<double>(values.size());
  s.p50 = percentile_sorted(values, 50);
  s.p90 = percentile_sorted(values, 90);
  s.p99 = percentile_sorted(values, 99);
  s.min = values.front();
  s.max = values.back();
  return s;
}

namespace {
double median_of(std::vector<double>& v) {
  std::sort(v.begin(), v.end());
  return percentile_sorted(v, 50);
}
}  // namespace

MedianDifference median_difference(std::span<const double> a, std::span<const double> b, int resamples,
                                   std::uint64_t seed) {
  MedianDifference d;
  std::vector<double> va(a.begin(), a.end()), vb(b.begin(), b.end());
  d.median_a = median_of(va);
  d.median_b = median_of(vb);
  d.diff = d.median_b - d.median_a;
  if (a.empty() || b.empty()) return d;
  std::mt19937_64 rng(seed);
  std::uniform_int_distribution<std::size_t> pick_a(0, a.size() - 1), pick_b(0, b.size() - 1);
  std::vector<double> diffs;
  diffs.reserve(static_cast<std::size_t>(resamples));
  std::vector<double> ra(a.size()), rb(b.size());
  for (int r = 0; r < resamples; ++r) {
    for (auto& x : ra) x = a[pick_a(rng)];
    for (auto& x : rb) x = b[pick_b(rng)];
    diffs.push_back(median_of(rb) - median_of(ra));
  }
  std::sort(diffs.begin(), diffs.end());
  d.ci_low = percentile_sorted(diffs, 2.5);
  d.ci_high = percentile_sorted(diffs, 97.5);
  d.significant = (d.ci_low > 0 && d.ci_high > 0) || (d.ci_low < 0 && d.ci_high < 0);
  return d;
}

}  // namespace flopscope
