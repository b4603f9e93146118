#include "analyzer/fleet/rank_heatmap.h"

#include <algorithm>

namespace flopscope {

RankHeatmap rank_heatmap(const RankReport& report, int max_depth) {
  RankHeatmap h;
  h.data.iterations = static_cast<int>(report.ranks.size());
  bool first = true;
  for (std::size_t m = 0; m < report.modules.size(); ++m) {
    const RankModuleRow& module = report.modules[m];
    if (max_depth >= 0 && module.depth > max_depth) continue;
    if (module.time.max <= 0) continue;
    HeatmapRow row;
    row.path = module.path.empty() ? "(model)" : module.path;  // the root, named as `report` names it
    std::vector<double> cells;
    cells.reserve(module.time_p50.size());
    for (const auto& v : module.time_p50) {
      const double x = v.value_or(0);
      cells.push_back(x);
      if (x <= 0) continue;
      h.data.min_ns = first ? x : std::min(h.data.min_ns, x);
      h.data.max_ns = first ? x : std::max(h.data.max_ns, x);
      first = false;
    }
    row.stats.values = IterationSeries::from_dense(cells);
    h.data.rows.push_back(std::move(row));
    h.modules.push_back(m);
  }
  return h;
}

}  // namespace flopscope
