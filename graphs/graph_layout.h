// The laid-out picture of a ViewGraph, for front ends that draw it themselves (the GUI): Graphviz `dot`
// places the very DOT text write_dot gives `flopscope graph`, and the positions, sizes, labels and colours
// are read back through cgraph. So the GUI and an exported SVG/PDF show the same picture. Qt-free; the
// Graphviz types stay inside graph_layout.cpp.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "db/model/status.h"
#include "graphs/dot_writer.h"

namespace flopscope::graphs {

// Coordinates are Graphviz points (1/72 inch), x to the right and y DOWN the page from the top-left of
// the drawing (Graphviz's own y grows upward; the layout flips it).
struct LayoutPoint {
  double x = 0;
  double y = 0;
};

struct LayoutBox {
  double x = 0;  // top-left
  double y = 0;
  double width = 0;
  double height = 0;
  // Whether `other` lies inside this box, allowing `slack` points of rounding.
  bool contains(const LayoutBox& other, double slack = 0) const {
    return other.x >= x - slack && other.y >= y - slack && other.x + other.width <= x + width + slack &&
           other.y + other.height <= y + height + slack;
  }
  bool overlaps(const LayoutBox& other) const {  // interiors intersect
    return x < other.x + other.width && other.x < x + width && y < other.y + other.height &&
           other.y < y + height;
  }
};

// Colours are as the DOT writer set them ("#rrggbb"); style is Graphviz's ("rounded,filled,dashed").
struct LaidOutNode {
  int view_node = 0;  // index into ViewGraph::nodes
  LayoutBox box;
  std::string label;  // lines separated by '\n'
  std::string shape;  // "box", "box3d" (collapsed module), "oval" (input/output)
  std::string style;
  std::string fill;
  std::string border;
  std::string font_color;
  double pen_width = 1;
  double font_size = 10;
};

struct LaidOutCluster {
  std::string module_path;
  std::string label;
  LayoutBox box;
  LayoutBox label_box;  // where Graphviz put the label (top of the box)
  int depth = 1;        // nesting level, 1 for a top-level cluster
  std::string style;
  std::string fill;
  std::string border;
  double font_size = 14;
};

struct LaidOutEdge {
  int src = 0;  // indices into ViewGraph::nodes
  int dst = 0;
  // Cubic Bezier control points: 1 + 3k points, start at the source's border (or at the base of a start
  // arrow), end at the base of the arrow head.
  std::vector<LayoutPoint> points;
  std::optional<LayoutPoint> arrow_tip;    // where the arrow head touches the destination
  std::optional<LayoutPoint> arrow_start;  // a start arrow (unused by the DOT writer, read for completeness)
  std::string color;
  std::string style;
  double pen_width = 1;
  double arrow_size = 1;
};

struct GraphLayout {
  double width = 0;  // the drawing's bounding box
  double height = 0;
  std::string title;  // the graph label (file name, collapse depth, colouring)
  LayoutBox title_box;
  double title_font_size = 14;
  // The legend: where it sits and its table as the DOT writer wrote it (HTML-like: <table>, <tr>, <td
  // bgcolor=...>, <b>), for a front end to draw as rich text.
  LayoutBox legend_box;
  std::string legend_html;
  std::vector<LaidOutNode> nodes;        // in ViewGraph::nodes order; the legend is not among them
  std::vector<LaidOutCluster> clusters;  // outer before inner
  std::vector<LaidOutEdge> edges;
};

// Lays out write_dot(view, options) with Graphviz `dot`. Errors: Graphviz's message, or Unsupported when
// this build has no Graphviz (graphviz_rendering_available() is false).
StatusOr<GraphLayout> layout_view(const ViewGraph& view, const DotOptions& options = {});

}  // namespace flopscope::graphs
