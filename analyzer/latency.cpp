#include "analyzer/latency.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <random>

#include "analyzer/format.h"

namespace flopscope {

double percentile_sorted(std::span<const double> sorted, double q) {
  if (sorted.empty()) return 0;
  double pos = (q / 100.0) * static_cast<double>(sorted.size() - 1);
  auto lo = static_cast<std::size_t>(std::floor(pos));
  std::size_t hi = std::min(lo + 1, sorted.size() - 1);
  double frac = pos - static_cast<double>(lo);
  return sorted[lo] + (sorted[hi] - sorted[lo]) * frac;
}

LatencyStats latency_stats(IterationSeries series) {
  series.normalise();
  LatencyStats s;
  s.samples = static_cast<int>(series.size());
  if (series.empty()) return s;
  // The sorted values are the negative entries, the implied zeros, then the positive entries.
  // Scratch reused by every call of a thread: this runs once per module and per op signature.
  thread_local std::vector<double> nonzero;
  nonzero.clear();
  for (const auto& e : series.entries()) nonzero.push_back(e.second);
  std::sort(nonzero.begin(), nonzero.end());
  const std::size_t n = series.size();
  const std::size_t negative =
      static_cast<std::size_t>(std::lower_bound(nonzero.begin(), nonzero.end(), 0.0) - nonzero.begin());
  const std::size_t zeros = n - nonzero.size();
  auto sorted_at = [&](std::size_t k) {
    if (k < negative) return nonzero[k];
    if (k < negative + zeros) return 0.0;
    return nonzero[k - zeros];
  };
  auto percentile = [&](double q) {
    double pos = (q / 100.0) * static_cast<double>(n - 1);
    auto lo = static_cast<std::size_t>(std::floor(pos));
    std::size_t hi = std::min(lo + 1, n - 1);
    return sorted_at(lo) + (sorted_at(hi) - sorted_at(lo)) * (pos - static_cast<double>(lo));
  };
  s.mean = series.sum() / static_cast<double>(n);
  s.p50 = percentile(50);
  s.p90 = percentile(90);
  s.p99 = percentile(99);
  s.min = sorted_at(0);
  s.max = sorted_at(n - 1);
  s.values = std::move(series);
  return s;
}

LatencyStats latency_stats(const std::vector<double>& values) {
  return latency_stats(IterationSeries::from_dense(values));
}

namespace {
double median_of(std::vector<double>& v) {
  std::sort(v.begin(), v.end());
  return percentile_sorted(v, 50);
}
}  // namespace

double family_level(int family) {
  return 1.0 - 0.05 / std::max(1, family);
}

double normal_quantile_two_sided(double level) {
  // Bisection on erfc: P(|Z| > z) = erfc(z / sqrt 2).
  const double tail = 1.0 - level;
  double lo = 0, hi = 40;
  for (int i = 0; i < 100; ++i) {
    double mid = (lo + hi) / 2;
    (std::erfc(mid / std::sqrt(2.0)) > tail ? lo : hi) = mid;
  }
  return (lo + hi) / 2;
}

MedianDifference median_difference(std::span<const double> a, std::span<const double> b, int resamples,
                                   std::uint64_t seed, double level) {
  MedianDifference d;
  d.level = level;
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
  d.ci_low = percentile_sorted(diffs, 50 * (1 - level));
  d.ci_high = percentile_sorted(diffs, 100 - 50 * (1 - level));
  d.significant = (d.ci_low > 0 && d.ci_high > 0) || (d.ci_low < 0 && d.ci_high < 0);
  return d;
}

int min_samples_for_percentile(int percentile) {
  return percentile >= 99 ? 100 : percentile >= 90 ? 10 : 1;
}

std::string percentile_text(const LatencyStats& s, int percentile) {
  if (s.samples < min_samples_for_percentile(percentile)) return "-";
  return time_text(percentile >= 99 ? s.p99 : percentile >= 90 ? s.p90 : s.p50);
}

std::string percentile_note(int samples) {
  if (samples >= min_samples_for_percentile(99)) return "";
  return "P90 needs " + std::to_string(min_samples_for_percentile(90)) + " iterations and P99 " +
         std::to_string(min_samples_for_percentile(99)) +
         " (with fewer, they are the extremes); shown as - for this run's " + std::to_string(samples) +
         (samples == 1 ? " iteration" : " iterations");
}

}  // namespace flopscope
