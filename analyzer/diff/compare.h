// How two sides of one module or op signature compare: the status rule shared by modules and ops.
#pragma once

#include "analyzer/diff/diff.h"

namespace flopscope {

// Time: a bootstrap CI of the median difference, computed only when the medians differ by at least
// min_time_change (smaller changes can never be called) and both sides have >= 3 iterations; otherwise
// the interval is NaN and the change is not significant.
MedianDifference compare_time(const LatencyStats& a, const LatencyStats& b, const DiffOptions& o, bool* significant);

// CHANGED when counts, FLOPs or bytes differ beyond the tolerance or time changed significantly.
bool costs_differ(const SideCost& a, const SideCost& b, const DiffOptions& o);

inline constexpr int kMinIterationsForStats = 3;

}  // namespace flopscope
