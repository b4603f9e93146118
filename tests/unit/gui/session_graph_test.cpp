// The session's graph is graphs/'s (union, costs, diff states), and graphs/layout_view places it with
// Graphviz: clusters hold their nodes, nodes do not overlap, collapse and diff states as the CLI has them.
#include <gtest/gtest.h>

#include "analyzer/diff/path_map_specs.h"
#include "graphs/collapse.h"
#include "graphs/graph_layout.h"
#include "graphs/heat.h"
#include "graphs/render.h"
#include "tests/unit/gui/qt_environment.h"

namespace flopscope::gui::testing {
namespace {

bool inside(const std::string& module, const std::string& cluster) {
  return module == cluster ||
         (module.size() > cluster.size() && module.compare(0, cluster.size(), cluster) == 0 &&
          module[cluster.size()] == '.');
}

graphs::DotOptions gui_options() {
  return {};
}

TEST(SessionGraph, ClustersContainTheirNodesAndNodesDoNotOverlap) {
  if (!graphs::graphviz_rendering_available()) GTEST_SKIP() << "built without Graphviz";
  auto s = fixture_session(Variant::kV1);
  EXPECT_EQ(s->graph.nodes.size(), s->a->data.graph_nodes.size());
  EXPECT_TRUE(s->graph.has_costs);
  graphs::ViewGraph view = graphs::collapse(s->graph, std::set<std::string>{});
  auto laid_out = graphs::layout_view(view, gui_options());
  ASSERT_TRUE(laid_out.ok()) << laid_out.status().message();
  const graphs::GraphLayout& g = *laid_out;
  ASSERT_EQ(g.nodes.size(), view.nodes.size());
  bool bias_cluster = false;
  for (const auto& c : g.clusters) {
    bias_cluster |= c.module_path == "layers.1.attn.position_adaptive_bias";
    for (std::size_t i = 0; i < g.nodes.size(); ++i)
      if (inside(view.nodes[i].cluster, c.module_path)) {
        EXPECT_TRUE(c.box.contains(g.nodes[i].box, 0.5)) << g.nodes[i].label << " outside " << c.module_path;
      }
  }
  EXPECT_TRUE(bias_cluster);
  for (std::size_t i = 0; i < g.nodes.size(); ++i)
    for (std::size_t j = i + 1; j < g.nodes.size(); ++j)
      EXPECT_FALSE(g.nodes[i].box.overlaps(g.nodes[j].box)) << g.nodes[i].label << " / " << g.nodes[j].label;
  // rankdir=TB: most edges point down the page.
  int downward = 0;
  for (const auto& e : g.edges)
    downward +=
        g.nodes[static_cast<std::size_t>(e.dst)].box.y > g.nodes[static_cast<std::size_t>(e.src)].box.y ? 1
                                                                                                        : 0;
  EXPECT_GT(downward, static_cast<int>(g.edges.size()) * 8 / 10);
}

TEST(SessionGraph, CollapsingAModuleDrawsOneBoxForIt) {
  auto s = fixture_session(Variant::kV1);
  graphs::ViewGraph view = graphs::collapse(s->graph, std::set<std::string>{"layers.0"});
  int boxes = 0;
  for (const auto& n : view.nodes) {
    EXPECT_FALSE(n.module_path.rfind("layers.0.", 0) == 0) << n.module_path;
    if (n.is_module) {
      ++boxes;
      EXPECT_EQ(n.module_path, "layers.0");
      EXPECT_GT(n.members, 10);
      EXPECT_GT(n.cost.flops, 0);
    }
  }
  EXPECT_EQ(boxes, 1);
  EXPECT_EQ(view.depth, graphs::kChosenModules);
  // Collapsing by depth is collapsing the set of modules at that depth.
  auto at_depth = graphs::modules_at_depth(s->graph, graphs::choose_depth(s->graph, 20));
  EXPECT_LE(graphs::collapse(s->graph, at_depth).nodes.size(), 20u);
  EXPECT_EQ(graphs::collapse(s->graph, at_depth).nodes.size(),
            graphs::collapse(s->graph, graphs::choose_depth(s->graph, 20)).nodes.size());
}

TEST(SessionGraph, DiffMarksTheRemovedBiasNodes) {
  auto s = fixture_session(Variant::kV1, Variant::kV2);
  ASSERT_TRUE(s->graph.is_diff);
  graphs::ViewGraph view = graphs::collapse(s->graph, std::set<std::string>{});
  int removed = 0, removed_elsewhere = 0, added = 0;
  for (const auto& n : view.nodes) {
    if (n.diff == DiffStatus::kVanished) {
      ++removed;
      if (n.module_path.find("position_adaptive_bias") == std::string::npos) ++removed_elsewhere;
    }
    if (n.diff == DiffStatus::kNew) ++added;
  }
  EXPECT_EQ(removed, 2 * 7);  // seven ops per bias module, two layers
  EXPECT_EQ(removed_elsewhere, 0);
  EXPECT_EQ(added, 0);
  if (!graphs::graphviz_rendering_available()) GTEST_SKIP() << "built without Graphviz";
  auto laid_out = graphs::layout_view(view, gui_options());
  ASSERT_TRUE(laid_out.ok()) << laid_out.status().message();
  int dashed_edges = 0, red_nodes = 0;
  for (const auto& e : laid_out->edges) dashed_edges += e.style.find("dashed") != std::string::npos ? 1 : 0;
  for (const auto& n : laid_out->nodes)
    red_nodes += n.border == graphs::diff_style(DiffStatus::kVanished).border;
  EXPECT_GT(dashed_edges, 0);
  EXPECT_EQ(red_nodes, 14);
}

// B's modules renamed (layers.N -> blocks.N): the GUI's diff graph pairs them as `flopscope graph --diff`
// does, by the engine's container alignment (on by default) or, with --no-align, by the --map-b that renames
// them back; with neither, every op of layers.N is removed and every op of blocks.N added.
TEST(SessionGraph, DiffGraphHonoursTheMapsAndAlignment) {
  auto rename = [](std::string& s) {
    if (s.rfind("layers", 0) == 0) s.replace(0, 6, "blocks");
  };
  FixtureOptions o{Variant::kV1};
  o.seed = 2;
  RunData b = sonnet_run(o);
  for (auto& m : b.modules) rename(m.path);
  for (auto& p : b.params) rename(p.name);
  for (auto& n : b.graph_nodes) rename(n.module_path);
  auto run_a = make_loaded_run(QStringLiteral("v1.db"), sonnet_run({Variant::kV1}));
  auto run_b = make_loaded_run(QStringLiteral("renamed.db"), std::move(b));
  auto differing = [](const Session& s) {
    int n = 0;
    for (const auto& node : s.graph.nodes)
      n += node.diff == DiffStatus::kVanished || node.diff == DiffStatus::kNew ? 1 : 0;
    return n;
  };
  auto session = [&](const PathMapSpecs& specs) {
    DiffOptions options;
    EXPECT_TRUE(parse_path_maps(specs, options).ok());
    return make_session(run_a, run_b, options);
  };
  EXPECT_EQ(differing(*session({})), 0);  // aligned as the engine aligns containers
  EXPECT_GT(differing(*session({{}, {}, {}, true})), 0);
  SessionPtr mapped = session({{}, {}, {"^blocks=layers"}, true});
  EXPECT_EQ(differing(*mapped), 0);
  // The module diff took the same pairing: no module vanished.
  for (const auto& m : mapped->diff.engine->modules) EXPECT_NE(m.verdict, Verdict::kVanished) << m.path;
}

}  // namespace
}  // namespace flopscope::gui::testing
