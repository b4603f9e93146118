// graphs/graph_layout: Graphviz's placement of the DOT writer's graph read back as plain coordinates.
#include "graphs/graph_layout.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "graphs/collapse.h"
#include "graphs/graph_diff.h"
#include "graphs/heat.h"
#include "synthetic_graph.h"

namespace flopscope::graphs {
namespace {

bool inside(const std::string& module, const std::string& cluster) {
  return module == cluster ||
         (module.size() > cluster.size() && module.compare(0, cluster.size(), cluster) == 0 &&
          module[cluster.size()] == '.');
}

// Distance from a point to a box's border (0 on it, positive outside or inside).
double to_border(const LayoutPoint& p, const LayoutBox& b) {
  const double dx = std::max({b.x - p.x, 0.0, p.x - (b.x + b.width)});
  const double dy = std::max({b.y - p.y, 0.0, p.y - (b.y + b.height)});
  if (dx > 0 || dy > 0) return std::hypot(dx, dy);
  return std::min({p.x - b.x, b.x + b.width - p.x, p.y - b.y, b.y + b.height - p.y});
}

GraphLayout laid_out(const ViewGraph& view, const DotOptions& options = {}) {
  auto layout = layout_view(view, options);
  EXPECT_TRUE(layout.ok()) << layout.status().message();
  return layout.ok() ? *layout : GraphLayout{};
}

TEST(GraphLayout, NodesDoNotOverlapAndClustersContainTheirNodes) {
  // 2 blocks x 2 subs x 3 ops at op level: 14 nodes in 6 nested clusters, a chain plus residual edges.
  ViewGraph view = collapse(testing::synthetic_graph(2, 2, 3), kOpLevel);
  GraphLayout g = laid_out(view);
  ASSERT_EQ(g.nodes.size(), view.nodes.size());
  EXPECT_GT(g.width, 0);
  EXPECT_GT(g.height, 0);
  for (std::size_t i = 0; i < g.nodes.size(); ++i) {
    EXPECT_EQ(g.nodes[i].view_node, static_cast<int>(i));
    EXPECT_GT(g.nodes[i].box.width, 0);
    EXPECT_GT(g.nodes[i].box.height, 0);
    // Inside the drawing.
    EXPECT_TRUE((LayoutBox{0, 0, g.width, g.height}).contains(g.nodes[i].box, 0.5)) << g.nodes[i].label;
    for (std::size_t j = i + 1; j < g.nodes.size(); ++j)
      EXPECT_FALSE(g.nodes[i].box.overlaps(g.nodes[j].box)) << g.nodes[i].label << " / " << g.nodes[j].label;
  }
  // blocks, blocks.0, blocks.0.sub0, blocks.0.sub1, blocks.1, ...: outer before inner, each holding its
  // nodes.
  ASSERT_EQ(g.clusters.size(), 7u);
  EXPECT_EQ(g.clusters[0].module_path, "blocks");
  EXPECT_EQ(g.clusters[0].depth, 1);
  EXPECT_EQ(g.clusters[0].label, "blocks (ModuleList)");
  for (const auto& c : g.clusters) {
    int held = 0;
    for (std::size_t i = 0; i < g.nodes.size(); ++i) {
      if (!inside(view.nodes[i].cluster, c.module_path)) {
        EXPECT_FALSE(c.box.overlaps(g.nodes[i].box)) << g.nodes[i].label << " inside " << c.module_path;
        continue;
      }
      ++held;
      EXPECT_TRUE(c.box.contains(g.nodes[i].box, 0.5)) << g.nodes[i].label << " outside " << c.module_path;
    }
    EXPECT_GT(held, 0) << c.module_path;
    EXPECT_TRUE(c.box.contains(c.label_box, 0.5)) << c.module_path;
    for (const auto& inner : g.clusters) {
      if (inner.module_path != c.module_path && inside(inner.module_path, c.module_path)) {
        EXPECT_TRUE(c.box.contains(inner.box, 0.5)) << inner.module_path << " outside " << c.module_path;
      }
    }
  }
}

TEST(GraphLayout, EdgesStartAndEndAtTheirNodes) {
  ViewGraph view = collapse(testing::synthetic_graph(2, 2, 3), kOpLevel);
  GraphLayout g = laid_out(view);
  ASSERT_EQ(g.edges.size(), view.edges.size());
  for (const auto& e : g.edges) {
    const LayoutBox& to = g.nodes[static_cast<std::size_t>(e.dst)].box;
    ASSERT_GE(e.points.size(), 4u);
    EXPECT_EQ((e.points.size() - 1) % 3, 0u);  // cubic Bezier segments
    ASSERT_TRUE(e.arrow_tip.has_value());      // the writer's edges are directed, head at dst
    EXPECT_FALSE(e.arrow_start.has_value());
    // Graphviz clips splines at the node's shape: on a box's border (within rounding), on an oval's
    // outline, which lies inside its box.
    auto at_node = [&](const LayoutPoint& p, int node) {
      const LaidOutNode& n = g.nodes[static_cast<std::size_t>(node)];
      const LayoutBox grown{n.box.x - 2, n.box.y - 2, n.box.width + 4, n.box.height + 4};
      if (!grown.contains({p.x, p.y, 0, 0})) return false;
      return n.shape == "oval" || std::abs(to_border(p, n.box)) < 2.0;
    };
    EXPECT_TRUE(at_node(e.points.front(), e.src)) << e.src << "->" << e.dst;
    EXPECT_TRUE(at_node(*e.arrow_tip, e.dst)) << e.src << "->" << e.dst;
    // The arrow head sits between the spline's end and the destination.
    EXPECT_GT(to_border(e.points.back(), to), 1.0) << e.src << "->" << e.dst;
    EXPECT_EQ(e.color, "#7f7f7f");
    EXPECT_DOUBLE_EQ(e.arrow_size, 0.6);
  }
}

TEST(GraphLayout, LabelsAndColoursAreTheDotWritersAndYGrowsDown) {
  ViewGraph view = collapse(testing::synthetic_graph(1, 1, 3), kOpLevel);
  GraphLayout g = laid_out(view);
  ASSERT_EQ(g.nodes.size(), 5u);  // input, add, linear, add, output
  // The input comes first in the chain: at the top of a top-to-bottom drawing.
  EXPECT_LT(g.nodes.front().box.y, g.nodes.back().box.y);
  EXPECT_EQ(g.nodes.front().shape, "oval");
  EXPECT_EQ(g.nodes[1].label.substr(0, 4), "add\n");  // short kind, then shapes/costs on their own lines
  // FLOPs 1000, 2000, 3000: the largest is the hottest bucket, as the heat scale in the DOT.
  HeatScale scale({1000, 2000, 3000});
  EXPECT_EQ(g.nodes[3].fill, HeatScale::fill(scale.bucket(3000)));
  EXPECT_EQ(g.nodes[3].font_color, HeatScale::font_color(scale.bucket(3000)));
  EXPECT_EQ(g.nodes[0].fill, "#ffffff");  // no cost
  EXPECT_NE(g.title.find("synthetic\nop level"), std::string::npos) << g.title;
  EXPECT_LT(g.title_box.y, g.nodes.front().box.y);  // labelloc=t
  // Plain colours: no heat.
  DotOptions plain;
  plain.color_by.reset();
  for (const auto& n : laid_out(view, plain).nodes) EXPECT_EQ(n.fill, "#ffffff");
}

TEST(GraphLayout, DiffStatesAndCollapsedModulesKeepTheirLook) {
  OpGraph base = testing::synthetic_graph(2, 1, 2);
  OpGraph other = testing::synthetic_graph(1, 1, 2);  // blocks.1 removed
  ViewGraph view = collapse(diff_graphs(base, other), std::set<std::string>{"blocks.1"});
  GraphLayout g = laid_out(view);
  int removed = 0;
  for (std::size_t i = 0; i < g.nodes.size(); ++i) {
    if (view.nodes[i].is_module) {
      EXPECT_EQ(g.nodes[i].shape, "box3d");
      EXPECT_EQ(view.nodes[i].diff, DiffStatus::kVanished);
      EXPECT_EQ(g.nodes[i].border, diff_style(DiffStatus::kVanished).border);
      EXPECT_NE(g.nodes[i].style.find("dashed"), std::string::npos);
      EXPECT_DOUBLE_EQ(g.nodes[i].pen_width, 2);
      ++removed;
    }
  }
  EXPECT_EQ(removed, 1);
  EXPECT_NE(g.title.find("1 modules collapsed"), std::string::npos) << g.title;
  // Without diff colours the same view is coloured as a run, with no diff borders.
  DotOptions heat;
  heat.diff_colors = false;
  for (const auto& n : laid_out(view, heat).nodes) EXPECT_EQ(n.border, "#777777");
}

TEST(GraphLayout, ALargerGraphStillHasNoOverlaps) {
  OpGraph graph = testing::synthetic_graph(6, 4, 8);
  ViewGraph view = collapse(graph, 2);  // blocks.N collapsed: 6 boxes plus input and output
  GraphLayout g = laid_out(view);
  ASSERT_EQ(g.nodes.size(), 8u);
  for (std::size_t i = 0; i < g.nodes.size(); ++i)
    for (std::size_t j = i + 1; j < g.nodes.size(); ++j)
      EXPECT_FALSE(g.nodes[i].box.overlaps(g.nodes[j].box));
  EXPECT_NE(g.title.find("collapsed to module depth 2"), std::string::npos);
}

}  // namespace
}  // namespace flopscope::graphs
