#include "analyzer/diff/compare.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace flopscope {
namespace {

bool differ(double a, double b, double tol) {
  return std::fabs(b - a) > tol * std::max(std::fabs(a), std::fabs(b));
}

// Every test of one diff has the same level: the bisection runs once, not once per row.
double quantile_for(double level) {
  thread_local double last_level = -1, last_z = 0;
  if (level != last_level) {
    last_z = normal_quantile_two_sided(level);
    last_level = level;
  }
  return last_z;
}

}  // namespace

MedianDifference shift_interval(std::span<const double> a, std::span<const double> b, double level) {
  MedianDifference d;
  d.level = level;
  // Scratch reused by every call of a thread (one call per module and op signature of a diff).
  thread_local std::vector<double> sa, sb, diffs;
  sa.assign(a.begin(), a.end());
  sb.assign(b.begin(), b.end());
  std::sort(sa.begin(), sa.end());
  std::sort(sb.begin(), sb.end());
  d.median_a = percentile_sorted(sa, 50);
  d.median_b = percentile_sorted(sb, 50);
  d.diff = d.median_b - d.median_a;
  d.ci_low = d.ci_high = std::numeric_limits<double>::quiet_NaN();
  const double n = static_cast<double>(a.size()), m = static_cast<double>(b.size());
  if (a.empty() || b.empty()) return d;
  // Rank of the bounds among the n*m pairwise differences: the Mann-Whitney critical value (normal
  // approximation, two-sided at `level`) plus one.
  const double z = quantile_for(level);
  double k = std::floor(n * m / 2 - z * std::sqrt(n * m * (n + m + 1) / 12));
  if (k < 1) return d;  // too few samples for an interval at this level
  diffs.clear();
  diffs.reserve(a.size() * b.size());
  for (double y : sb) {
    for (double x : sa) diffs.push_back(y - x);
  }
  auto lo = static_cast<std::size_t>(k) - 1, hi = diffs.size() - static_cast<std::size_t>(k);
  std::nth_element(diffs.begin(), diffs.begin() + static_cast<std::ptrdiff_t>(lo), diffs.end());
  d.ci_low = diffs[lo];
  std::nth_element(diffs.begin(), diffs.begin() + static_cast<std::ptrdiff_t>(hi), diffs.end());
  d.ci_high = diffs[hi];
  d.significant = d.ci_low > 0 || d.ci_high < 0;
  return d;
}

MedianDifference compare_time(const LatencyStats& a, const LatencyStats& b, const DiffOptions& o,
                              const ProcessSplit& processes, bool* significant, int family) {
  MedianDifference d;
  d.family = family;
  d.level = family_level(family);
  d.median_a = a.p50;
  d.median_b = b.p50;
  d.diff = b.p50 - a.p50;
  d.ci_low = d.ci_high = std::numeric_limits<double>::quiet_NaN();
  *significant = false;
  if (a.samples < kMinIterationsForStats || b.samples < kMinIterationsForStats) return d;
  if (!processes.assessable()) {
    d.assessable = false;
    return d;
  }
  const std::vector<double> ma = process_medians(a.values, processes.a),
                            mb = process_medians(b.values, processes.b);
  MedianDifference w = welch_interval(ma, mb, d.level);
  w.family = family;
  const double rel = w.median_a > 0 ? std::fabs(w.diff) / w.median_a : (w.median_b > 0 ? 1.0 : 0.0);
  // The interval stays (the time gate reads it); a change below the minimum effect is never called.
  *significant = w.significant && rel >= o.min_time_change && std::fabs(w.diff) >= o.min_time_change_ns;
  return w;
}

bool costs_differ(const SideCost& a, const SideCost& b, const DiffOptions& o) {
  return differ(a.ops, b.ops, 1e-9) || differ(a.kernels, b.kernels, 1e-9) ||
         differ(a.flops, b.flops, o.cost_tolerance) || differ(a.bytes, b.bytes, o.cost_tolerance);
}

const char* to_string(TimeStatus s) {
  switch (s) {
    case TimeStatus::kUntested:
      return "untested";
    case TimeStatus::kUnchanged:
      return "unchanged";
    case TimeStatus::kFaster:
      return "faster";
    case TimeStatus::kSlower:
      return "slower";
    case TimeStatus::kNotAssessable:
      return "not_assessable";
    case TimeStatus::kSingleSample:
      return "single_sample";
  }
  return "?";
}

TimeStatus time_status_of(const LatencyStats& a, const LatencyStats& b, const MedianDifference& t,
                          bool significant) {
  if (a.samples == 1 || b.samples == 1)
    return a.samples > 0 && b.samples > 0 ? TimeStatus::kSingleSample : TimeStatus::kUntested;
  if (a.samples < kMinIterationsForStats || b.samples < kMinIterationsForStats) return TimeStatus::kUntested;
  if (!t.assessable) return TimeStatus::kNotAssessable;
  if (!significant) return TimeStatus::kUnchanged;
  return t.diff < 0 ? TimeStatus::kFaster : TimeStatus::kSlower;
}

const char* to_string(WeightState s) {
  switch (s) {
    case WeightState::kNone:
      return "NONE";
    case WeightState::kActive:
      return "ACTIVE";
    case WeightState::kZeroed:
      return "ZEROED";
    case WeightState::kErased:
      return "ERASED";
    case WeightState::kMoved:
      return "MOVED";
  }
  return "?";
}

const char* to_string(Verdict v) {
  switch (v) {
    case Verdict::kVanished:
      return "VANISHED";
    case Verdict::kNew:
      return "NEW";
    case Verdict::kDormant:
      return "DORMANT";
    case Verdict::kAmbiguous:
      return "AMBIGUOUS";
    case Verdict::kNotRun:
      return "NOT_RUN";
    case Verdict::kUnwrapped:
      return "UNWRAPPED";
    case Verdict::kWrapped:
      return "WRAPPED";
    case Verdict::kMoved:
      return "MOVED";
    case Verdict::kChanged:
      return "CHANGED";
    case Verdict::kUnchanged:
      return "UNCHANGED";
  }
  return "?";
}

}  // namespace flopscope
