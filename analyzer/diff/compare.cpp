#include "analyzer/diff/compare.h"

#include <cmath>
#include <limits>

namespace flopscope {
namespace {

bool differ(double a, double b, double tol) {
  return std::fabs(b - a) > tol * std::max(std::fabs(a), std::fabs(b));
}

}  // namespace

MedianDifference compare_time(const LatencyStats& a, const LatencyStats& b, const DiffOptions& o, bool* significant) {
  MedianDifference d;
  d.median_a = a.p50;
  d.median_b = b.p50;
  d.diff = b.p50 - a.p50;
  d.ci_low = d.ci_high = std::numeric_limits<double>::quiet_NaN();
  *significant = false;
  if (a.samples < kMinIterationsForStats || b.samples < kMinIterationsForStats) return d;
  double rel = a.p50 > 0 ? std::fabs(d.diff) / a.p50 : (b.p50 > 0 ? 1.0 : 0.0);
  if (rel < o.min_time_change) return d;
  d = median_difference(a.values, b.values, o.bootstrap_resamples);
  *significant = d.significant;
  return d;
}

bool costs_differ(const SideCost& a, const SideCost& b, const DiffOptions& o) {
  return differ(a.ops, b.ops, 1e-9) || differ(a.kernels, b.kernels, 1e-9) ||
         differ(a.flops, b.flops, o.cost_tolerance) || differ(a.bytes, b.bytes, o.cost_tolerance);
}

const char* to_string(DiffStatus s) {
  switch (s) {
    case DiffStatus::kVanished: return "VANISHED";
    case DiffStatus::kNew: return "NEW";
    case DiffStatus::kChanged: return "CHANGED";
    case DiffStatus::kUnchanged: return "UNCHANGED";
  }
  return "?";
}

const char* to_string(WeightState s) {
  switch (s) {
    case WeightState::kNone: return "NONE";
    case WeightState::kActive: return "ACTIVE";
    case WeightState::kZeroed: return "ZEROED";
    case WeightState::kErased: return "ERASED";
  }
  return "?";
}

const char* to_string(Verdict v) {
  switch (v) {
    case Verdict::kVanished: return "VANISHED";
    case Verdict::kNew: return "NEW";
    case Verdict::kDormant: return "DORMANT";
    case Verdict::kChanged: return "CHANGED";
    case Verdict::kUnchanged: return "UNCHANGED";
  }
  return "?";
}

}  // namespace flopscope
