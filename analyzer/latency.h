// Latency statistics over iterations: mean and percentiles (linear interpolation between closest ranks,
// as numpy's default), plus a bootstrap confidence interval for the difference of two medians.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "analyzer/iteration_series.h"

namespace flopscope {

struct LatencyStats {
  int samples = 0;
  double mean = 0;
  double p50 = 0;
  double p90 = 0;
  double p99 = 0;
  double min = 0;
  double max = 0;
  IterationSeries values;  // per-iteration values (zeros implied), in iteration order
};

LatencyStats latency_stats(IterationSeries values);

// Iterations a percentile needs before it says more than the extremes: P90 10, P99 100 (with fewer,
// P99 is the largest value seen). P50 needs 1.
int min_samples_for_percentile(int percentile);
// The percentile (50, 90 or 99) of `s` as "12.3 ms", or "-" when `s` has too few samples for it.
std::string percentile_text(const LatencyStats& s, int percentile);
// "" when every percentile shown is backed by enough iterations; otherwise one sentence saying which are
// left out ("-") and why, for the foot of a table.
std::string percentile_note(int samples);
LatencyStats latency_stats(const std::vector<double>& values);

// Percentile q in [0, 100] of sorted values.
double percentile_sorted(std::span<const double> sorted, double q);

struct MedianDifference {
  double median_a = 0;
  double median_b = 0;
  double diff = 0;    // median_b - median_a
  double ci_low = 0;  // interval of the difference at `level`
  double ci_high = 0;
  bool significant = false;  // the interval excludes 0
  double level = 0.95;       // confidence of this one interval
  int family = 1;            // tests it is one of: 95% for all of them together (Bonferroni)
  // false: a side's iterations come from too few processes for an interval that includes the variance
  // between runs (analyzer/diff/between_runs.h): the interval is NaN, the change neither called nor not.
  bool assessable = true;
};

// Deterministic (seeded) percentile bootstrap over iterations, two-sided at `level`.
MedianDifference median_difference(std::span<const double> a, std::span<const double> b, int resamples = 2000,
                                   std::uint64_t seed = 42, double level = 0.95);

// The confidence of each of `family` intervals so that all of them hold together with 95% (Bonferroni).
double family_level(int family);
// z such that a standard normal lies within +-z with probability `level`.
double normal_quantile_two_sided(double level);

}  // namespace flopscope
