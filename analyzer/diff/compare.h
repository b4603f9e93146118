// How two sides of one module or op signature compare: the status rule shared by modules and ops.
#pragma once

#include <span>

#include "analyzer/diff/diff.h"

namespace flopscope {

// Distribution-free interval (two-sided, at `level`) for the shift between two samples, from the
// Mann-Whitney test inverted over the sorted pairwise differences b_j - a_i (Hodges-Lehmann). `diff` is
// still median(b) - median(a). NaN bounds (not significant) when the samples are too small for it.
MedianDifference shift_interval(std::span<const double> a, std::span<const double> b, double level = 0.95);

inline constexpr std::size_t kMaxRankPairs = 250'000;

// Time of a module or op: computed only when the medians differ by at least min_time_change (smaller
// changes are never called) and both sides have >= 3 iterations; otherwise the interval is NaN and the
// change is not significant. The rank interval (shift_interval) while iterations_a x iterations_b <=
// kMaxRankPairs, else the bootstrap median_difference().
// `family`: how many such tests one diff makes (modules, or op signatures); each interval is then at the
// Bonferroni level family_level(family), so that a self-diff of many modules is not expected to call ~5% of
// them faster or slower.
MedianDifference compare_time(const LatencyStats& a, const LatencyStats& b, const DiffOptions& o,
                              bool* significant, int family = 1);

// CHANGED when counts, FLOPs or bytes differ beyond the tolerance (time is a status of its own).
bool costs_differ(const SideCost& a, const SideCost& b, const DiffOptions& o);

inline constexpr int kMinIterationsForStats = 3;

// faster / slower when significant (compare_time already applied the minimum effect), else unchanged;
// untested when a side has too few iterations.
TimeStatus time_status_of(const LatencyStats& a, const LatencyStats& b, const MedianDifference& t,
                          bool significant);

}  // namespace flopscope
