#include "analyzer/heatmap.h"

#include <algorithm>
#include <cmath>

namespace flopscope {

double HeatmapData::scale(double ns) const {
  if (ns <= 0 || max_ns <= 0) return 0;
  double lo = std::log(std::max(min_ns, 1.0));
  double hi = std::log(std::max(max_ns, 1.0));
  if (hi <= lo) return 1;
  return std::clamp((std::log(std::max(ns, 1.0)) - lo) / (hi - lo), 0.0, 1.0);
}

double HeatmapData::value(std::size_t row, std::size_t iteration) const {
  if (row >= rows.size()) return 0;
  return rows[row].stats.values.at(iteration);
}

HeatmapData heatmap_data(const RunSummary& summary, std::size_t top_n) {
  HeatmapData d;
  d.iterations = summary.iterations;
  std::vector<const ModuleSummary*> candidates;
  for (std::size_t i = 1; i < summary.modules.size(); ++i)
    if (summary.modules[i].self_time.p50 > 0) candidates.push_back(&summary.modules[i]);
  std::stable_sort(candidates.begin(), candidates.end(), [](const ModuleSummary* x, const ModuleSummary* y) {
    return x->self_time.p50 > y->self_time.p50;
  });
  if (candidates.size() > top_n) candidates.resize(top_n);
  bool first = true;
  for (const ModuleSummary* m : candidates) {
    d.rows.push_back({m->path, m->self_time});
    d.iterations = std::max(d.iterations, static_cast<int>(m->self_time.values.size()));
    for (const auto& [iteration, v] : m->self_time.values.entries()) {
      if (v <= 0) continue;
      d.min_ns = first ? v : std::min(d.min_ns, v);
      d.max_ns = first ? v : std::max(d.max_ns, v);
      first = false;
    }
  }
  return d;
}

LatencyHistogram latency_histogram(const LatencyStats& stats) {
  LatencyHistogram h;
  const std::vector<double> values = stats.values.dense();  // one module's iterations
  h.lo = stats.min;
  h.hi = stats.max > stats.min ? stats.max : stats.min + 1;
  if (values.empty()) return h;
  // About two values per bin, between 5 and 40 bins: enough to see a second mode without gaps.
  const int bins = std::clamp(static_cast<int>(values.size()) / 2, 5, 40);
  h.counts.assign(static_cast<std::size_t>(bins), 0);
  for (double v : values) {
    if (!std::isfinite(v)) continue;
    int b = std::clamp(static_cast<int>((v - h.lo) / (h.hi - h.lo) * bins), 0, bins - 1);
    h.counts[static_cast<std::size_t>(b)]++;
  }
  h.peak = *std::max_element(h.counts.begin(), h.counts.end());
  return h;
}

}  // namespace flopscope
