// Time between two runs. Processes of one program differ by as much as the changes a diff looks for
// (memory layout, thread placement, clock and cache state are fixed at start-up), and the iterations of one
// process carry none of that variance: pooled as independent samples, two traces of one program were called
// "significantly" different in half of the self-diffs. So time is tested over per-process samples, the
// median of each process's iterations, and only with enough processes on both sides.
#pragma once

#include <span>
#include <string>
#include <vector>

#include "analyzer/iteration_series.h"
#include "analyzer/latency.h"
#include "db/model/run_data.h"

namespace flopscope {

inline constexpr int kMinProcessesForStats = 3;

// Which process ran each iteration of a run, by iteration index (the position among the run's ascending
// iteration numbers, as in IterationSeries).
struct RunProcesses {
  std::vector<int> of_iteration;  // empty: one process ran every iteration
  int count = 1;                  // processes that ran at least one iteration
};
RunProcesses run_processes(const RunData& run);

struct ProcessSplit {
  RunProcesses a, b;
  bool assessable() const { return a.count >= kMinProcessesForStats && b.count >= kMinProcessesForStats; }
};
ProcessSplit process_split(const RunData& a, const RunData& b);

// How every view words a time change that is not assessable (TimeStatus::kNotAssessable).
inline constexpr const char* kNotAssessableText =
    "not assessable across processes (use --rounds / trace --repeat)";
// The diff's warning: how many processes each side has and how to get more.
std::string not_assessable_warning(const ProcessSplit& p);

// The median of each process's per-iteration values (an iteration where the quantity is absent counts 0),
// in process order.
std::vector<double> process_medians(const IterationSeries& values, const RunProcesses& p);

// Welch's interval, two-sided at `level`, for mean(b) - mean(a) (Student's t, Welch-Satterthwaite degrees
// of freedom). median_a / median_b hold the two means. NaN bounds with fewer than 2 values on a side.
MedianDifference welch_interval(std::span<const double> a, std::span<const double> b, double level);

// t such that Student's t with `df` degrees of freedom lies within +-t with probability `level`.
double student_t_quantile_two_sided(double level, double df);

}  // namespace flopscope
