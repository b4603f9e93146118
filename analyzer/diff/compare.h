// How two sides of one module or op signature compare: the status rule shared by modules and ops.
#pragma once

#include <span>

#include "analyzer/diff/between_runs.h"
#include "analyzer/diff/diff.h"

namespace flopscope {

// Distribution-free interval (two-sided, at `level`) for the shift between two samples, from the
// Mann-Whitney test inverted over the sorted pairwise differences b_j - a_i (Hodges-Lehmann). `diff` is
// still median(b) - median(a). NaN bounds (not significant) when the samples are too small for it.
MedianDifference shift_interval(std::span<const double> a, std::span<const double> b, double level = 0.95);

// Time of a module, op or the whole run between two runs. Untested when a side has fewer than 3
// iterations. Not assessable (MedianDifference::assessable false, NaN interval) when a side's iterations
// come from fewer than kMinProcessesForStats processes: iterations of one process say nothing of the
// variance between processes. Otherwise the samples are the per-process medians (between_runs.h), and the
// interval is Welch's over them (MedianDifference::significant: it excludes 0); `significant` says the
// change is called: the interval excludes 0 and the estimate is at least min_time_change (relative) and
// min_time_change_ns (absolute).
// `family`: how many such tests one diff makes (modules, or op signatures); each interval is then at the
// Bonferroni level family_level(family), so that a self-diff of many modules is not expected to call ~5% of
// them faster or slower.
MedianDifference compare_time(const LatencyStats& a, const LatencyStats& b, const DiffOptions& o,
                              const ProcessSplit& processes, bool* significant, int family = 1);

// CHANGED when counts, FLOPs or bytes differ beyond the tolerance (time is a status of its own).
bool costs_differ(const SideCost& a, const SideCost& b, const DiffOptions& o);

inline constexpr int kMinIterationsForStats = 3;

// faster / slower when significant (compare_time already applied the minimum effect), else unchanged;
// single sample when a side has one iteration (the other at least one), untested when a side has 2 or
// none; not assessable when compare_time said so.
TimeStatus time_status_of(const LatencyStats& a, const LatencyStats& b, const MedianDifference& t,
                          bool significant);

}  // namespace flopscope
