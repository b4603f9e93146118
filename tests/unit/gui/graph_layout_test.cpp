#include <gtest/gtest.h>

#include "gui/models/graph_layout.h"
#include "tests/unit/gui/qt_environment.h"

namespace flopscope::gui::testing {
namespace {

bool inside(const std::string& module, const std::string& cluster) {
  return module == cluster || (module.size() > cluster.size() && module.compare(0, cluster.size(), cluster) == 0 &&
                               module[cluster.size()] == '.');
}

TEST(GraphLayout, ClustersContainTheirNodesAndNodesDoNotOverlap) {
  auto s = fixture_session(Variant::kV1);
  GraphLayout g = layout_graph(s->graph, {});
  EXPECT_EQ(g.nodes.size(), s->a->data.graph_nodes.size());
  EXPECT_EQ(g.source_nodes, static_cast<int>(s->a->data.graph_nodes.size()));
  EXPECT_GE(g.find_cluster("layers.1.attn.position_adaptive_bias"), 0);
  for (const auto& c : g.clusters)
    for (const auto& n : g.nodes)
      if (inside(n.module_path, c.path)) {
        EXPECT_TRUE(c.rect.contains(n.rect)) << n.label << " outside " << c.path;
      }
  for (std::size_t i = 0; i < g.nodes.size(); ++i)
    for (std::size_t j = i + 1; j < g.nodes.size(); ++j)
      EXPECT_FALSE(g.nodes[i].rect.intersects(g.nodes[j].rect)) << g.nodes[i].label << " / " << g.nodes[j].label;
  // Edges point down the page (a DAG in rank order) except between side-by-side siblings.
  int downward = 0;
  for (const auto& e : g.edges) downward += g.nodes[e.dst].rect.top() > g.nodes[e.src].rect.top() ? 1 : 0;
  EXPECT_GT(downward, static_cast<int>(g.edges.size()) * 8 / 10);
}

TEST(GraphLayout, CollapsingAModuleDrawsOneBoxForIt) {
  auto s = fixture_session(Variant::kV1);
  GraphLayout g = layout_graph(s->graph, {"layers.0"});
  int boxes = 0;
  for (const auto& n : g.nodes) {
    EXPECT_FALSE(n.module_path.rfind("layers.0.", 0) == 0) << n.module_path;
    if (n.collapsed) {
      ++boxes;
      EXPECT_EQ(n.module_path, "layers.0");
      EXPECT_GT(n.member_count, 10);
      EXPECT_GT(n.flops, 0);
    }
  }
  EXPECT_EQ(boxes, 1);
  EXPECT_EQ(g.find_node_for_module("layers.0.attn.q_proj"), g.find_node_for_module("layers.0"));
  auto collapsed = default_collapsed(s->graph, 20);
  EXPECT_LE(layout_graph(s->graph, collapsed).nodes.size(), 20u);
}

TEST(GraphLayout, DiffMarksTheVanishedBiasNodes) {
  auto s = fixture_session(Variant::kV1, Variant::kV2);
  GraphLayout g = layout_graph(s->graph, {});
  int vanished = 0, vanished_elsewhere = 0, added = 0;
  for (const auto& n : g.nodes) {
    if (n.status == DiffStatus::kVanished) {
      ++vanished;
      if (n.module_path.find("position_adaptive_bias") == std::string::npos) ++vanished_elsewhere;
    }
    if (n.status == DiffStatus::kNew) ++added;
  }
  EXPECT_EQ(vanished, 2 * 7);  // seven ops per bias module, two layers
  EXPECT_EQ(vanished_elsewhere, 0);
  EXPECT_EQ(added, 0);
  int dashed_edges = 0;
  for (const auto& e : g.edges) dashed_edges += e.status == DiffStatus::kVanished ? 1 : 0;
  EXPECT_GT(dashed_edges, 0);
}

}  // namespace
}  // namespace flopscope::gui::testing
