// The latency heatmap (analyzer/heatmap.h) as a picture without Qt: DOT with every shape at a fixed
// position, laid out by Graphviz's "nop2" engine (positions kept, nothing moved) and rendered through the
// same path as the graphs, so `flopscope heatmap` writes PNG, SVG or PDF without a display or Qt. The
// GUI paints the same data, geometry rules and colours with QPainter.
#pragma once

#include <string>

#include "analyzer/heatmap.h"

namespace flopscope::graphs {

// The picture's frame, shared with the GUI's painter so both draw the same layout (points or pixels).
namespace heatmap_frame {
inline constexpr int kMargin = 10;
inline constexpr int kTitle = 28;  // title band above the grid
inline constexpr int kAxis = 22;   // iteration axis below the grid
inline constexpr int kLegendWidth = 100;
}  // namespace heatmap_frame

struct HeatmapPictureOptions {
  int width = 1400;  // points; PNG is rendered at 72 dpi, so pixels
  int height = 900;
  std::string title;
  int selected_row = 0;  // whose histogram is drawn; -1 for none
};

// Graphviz engine that keeps the positions this writer sets.
inline constexpr const char* kHeatmapEngine = "nop2";

std::string write_heatmap_dot(const HeatmapData& data, const HeatmapPictureOptions& options);

}  // namespace flopscope::graphs
