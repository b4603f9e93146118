// The rank x module matrix of a distributed run as heatmap data: one row per module (the report's module
// order, down to a depth), one column per rank (RankReport::ranks order), each cell the module's time P50
// on that rank. The GUI's Ranks tab paints it with the latency heatmap's painter and colour scale.
#pragma once

#include <cstddef>
#include <vector>

#include "analyzer/fleet/ranks.h"
#include "analyzer/heatmap.h"

namespace flopscope {

struct RankHeatmap {
  HeatmapData data;                  // columns ("iterations") are ranks; 0 where a rank lacks the module
  std::vector<std::size_t> modules;  // row -> index into RankReport::modules
};

// Modules deeper than max_depth are left out (max_depth < 0: none); so are modules no rank spent time in.
RankHeatmap rank_heatmap(const RankReport& report, int max_depth);

}  // namespace flopscope
