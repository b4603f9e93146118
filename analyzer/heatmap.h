// Latency heatmap data: the top N modules by self time (rows) by iteration (columns), each cell the
// module's self time in that iteration on the run's clock (device time for GPU runs, analyzer/clock.h),
// the colour bar's ticks, two runs on one scale, the matrix as CSV and the histogram of one row. One owner
// for what the GUI's heatmap page, `flopscope heatmap` and the screenshot mode show; each only paints it.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "analyzer/clock.h"
#include "analyzer/latency.h"
#include "analyzer/summary.h"

namespace flopscope {

struct HeatmapRow {
  std::string path;
  LatencyStats stats;  // values are per iteration, in iteration order
};

struct HeatmapData {
  std::vector<HeatmapRow> rows;  // slowest first
  int iterations = 0;
  double min_ns = 0;  // over all cells > 0
  double max_ns = 0;
  Clock clock = Clock::kHost;  // the cells' clock
  // Position of a value on the colour scale, in [0, 1] (logarithmic: latencies span decades).
  double scale(double ns) const;
  // A row's value in an iteration; 0 where the row has none.
  double value(std::size_t row, std::size_t iteration) const;
};

// Rows are modules other than the root with self time, ordered by self time P50; modules that only
// contain others (no self time) are skipped because their children already show that time.
HeatmapData heatmap_data(const RunSummary& summary, std::size_t top_n = 20);

// Two runs (a diff) on the same rows, iterations and colour scale (the extremes over both), so one colour
// means one time in both pictures. Rows: the top modules of either run by self time P50 on `clock`,
// matched by module path, slowest first; a module missing from one run has an empty row there.
struct HeatmapPair {
  HeatmapData a, b;
};
HeatmapPair heatmap_pair(const RunSummary& a, const RunSummary& b, Clock clock, std::size_t top_n = 20);

// Ticks for the colour bar, in ns, between min_ns and max_ns on its log scale: 1, 2 and 5 times powers of
// ten (only powers of ten when those are too many for `max_ticks`), and both ends when none falls inside.
std::vector<double> heatmap_ticks(const HeatmapData& d, std::size_t max_ticks = 8);

// The matrix as CSV (RFC 4180, db/model/text_escape): "module,clock,iter_0,iter_1,..." then one line per row
// with the self time in ns per iteration (0 where the module did not run).
std::string heatmap_csv(const HeatmapData& d);
// Both runs of a pair in one table: a "run" column (A or B) first.
std::string heatmap_csv(const HeatmapPair& p);

// Equal-width bins of one row's per-iteration values, between its min and max. With fewer than
// kMinHistogramSamples iterations a histogram says nothing: the views show the values instead.
inline constexpr int kMinHistogramSamples = 5;
struct LatencyHistogram {
  double lo = 0;
  double hi = 0;  // > lo
  std::vector<int> counts;
  int peak = 0;  // largest count
};
LatencyHistogram latency_histogram(const LatencyStats& stats);

// What the colours mean, in words with units, for every view's legend: the measure and its clock, the
// logarithmic scale and its two ends (the smallest and largest cell), and the grey of a module that did
// not run.
std::string heatmap_legend(const HeatmapData& d);
// With fewer iterations than kMinHistogramSamples, why the colours show no spread across iterations and
// what they compare instead; "" with enough iterations.
std::string few_iterations_note(int iterations);

}  // namespace flopscope
