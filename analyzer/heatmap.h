// Latency heatmap data: the top N modules by self time (rows) by iteration (columns), each cell the
// module's self time in that iteration, and the histogram of one row. One owner for what the GUI's heatmap
// page, `flopscope heatmap` and the screenshot mode show; each only paints it.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

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
  // Position of a value on the colour scale, in [0, 1] (logarithmic: latencies span decades).
  double scale(double ns) const;
  // A row's value in an iteration; 0 where the row has none.
  double value(std::size_t row, std::size_t iteration) const;
};

// Rows are modules other than the root with self time, ordered by self time P50; modules that only
// contain others (no self time) are skipped because their children already show that time.
HeatmapData heatmap_data(const RunSummary& summary, std::size_t top_n = 20);

// Equal-width bins of one row's per-iteration values, between its min and max.
struct LatencyHistogram {
  double lo = 0;
  double hi = 0;  // > lo
  std::vector<int> counts;
  int peak = 0;  // largest count
};
LatencyHistogram latency_histogram(const LatencyStats& stats);

}  // namespace flopscope
