#include "graphs/graph_model.h"

#include <gtest/gtest.h>

#include "analyzer/diff/verdict_palette.h"
#include "graphs/collapse.h"
#include "graphs/dot_writer.h"
#include "graphs/graph_diff.h"
#include "graphs/heat.h"
#include "synthetic_graph.h"

namespace flopscope::graphs {
namespace {

TEST(ModulePath, DepthPrefixParent) {
  EXPECT_EQ(module_depth(""), 0);
  EXPECT_EQ(module_depth("embed"), 1);
  EXPECT_EQ(module_depth("layers.0.attn"), 3);
  EXPECT_EQ(module_prefix("layers.0.attn.q_proj", 2), "layers.0");
  EXPECT_EQ(module_prefix("layers.0", 5), "layers.0");
  EXPECT_EQ(module_prefix("layers.0", 0), "");
  EXPECT_EQ(parent_module("layers.0.attn"), "layers.0");
  EXPECT_EQ(parent_module("embed"), "");
}

TEST(OpGraph, OrdinalsCountPerModuleAndKindAndEdgesUseRecordIds) {
  std::vector<GraphNode> nodes = {{10, "aten::linear", "", 1, "a", ""},
                                  {11, "aten::add", "", 1, "a", ""},
                                  {12, "aten::linear", "", 1, "a", ""},
                                  {13, "aten::linear", "", 2, "b", ""}};
  std::vector<GraphEdge> edges = {{10, 11, "float32[2]"}, {11, 12, ""}, {12, 99, ""}};
  OpGraph g = make_op_graph(nodes, edges, {{0, kNoId, "", "Root"}, {1, 0, "a", "A"}, {2, 0, "b", "B"}});
  ASSERT_EQ(g.nodes.size(), 4u);
  EXPECT_EQ(g.nodes[0].identity(), "a|aten::linear#0");
  EXPECT_EQ(g.nodes[2].identity(), "a|aten::linear#1");
  EXPECT_EQ(g.nodes[3].identity(), "b|aten::linear#0");
  ASSERT_EQ(g.edges.size(), 2u);  // the edge to unknown id 99 is dropped
  EXPECT_EQ(g.edges[0].src, 0);
  EXPECT_EQ(g.edges[0].dst, 1);
  EXPECT_EQ(g.edges[0].label, "float32[2]");
  EXPECT_EQ(g.module_types.at("b"), "B");
}

TEST(Collapse, ModulesAtDepthBecomeBoxesInParentClusters) {
  OpGraph g = testing::synthetic_graph(2, 3, 4);  // 24 ops + input + output
  ViewGraph ops = collapse(g, kOpLevel);
  EXPECT_EQ(ops.nodes.size(), 26u);
  EXPECT_EQ(ops.edges.size(), 25u + 5u);  // chain + residuals

  ViewGraph d3 = collapse(g, 3);  // blocks.<b>.sub<s> boxes
  EXPECT_EQ(d3.nodes.size(), 2u + 6u);
  EXPECT_EQ(d3.edges.size(), 7u);  // chain through 6 boxes, internal edges dropped
  int boxes = 0;
  for (const auto& n : d3.nodes) {
    if (!n.is_module) continue;
    ++boxes;
    EXPECT_EQ(n.members, 4);
    EXPECT_EQ(n.cluster, parent_module(n.module_path));
    EXPECT_EQ(n.kind, "Sub");
    EXPECT_DOUBLE_EQ(n.cost.flops, 1000.0 * (1 + 2 + 3 + 4));
  }
  EXPECT_EQ(boxes, 6);
  EXPECT_EQ(count_view_nodes(g, 3), d3.nodes.size());
  EXPECT_EQ(collapse(g, 1).nodes.size(), 3u);  // input, "blocks", output
}

TEST(Collapse, ChooseDepthKeepsAboutThreeHundredNodes) {
  OpGraph small = testing::synthetic_graph(2, 3, 4);
  EXPECT_EQ(choose_depth(small), kOpLevel);
  OpGraph big = testing::synthetic_graph(50, 20, 10);  // 10,000 ops
  int depth = choose_depth(big);
  EXPECT_EQ(depth, 2);  // depth 3 would draw 1,000 boxes
  EXPECT_LE(collapse(big, depth).nodes.size(), kDefaultMaxNodes);
  EXPECT_EQ(choose_depth(big, 2000), 3);
}

TEST(Diff, MatchesByIdentityAndMarksRemovedAddedChanged) {
  OpGraph base = testing::synthetic_graph(1, 2, 2);  // sub0: add#0 linear#0, sub1: add#0 linear#0
  OpGraph other = base;
  other.title = "other";
  // Drop sub1 entirely from `other` and add a new op in sub0; make sub0's linear more expensive.
  other.nodes.erase(other.nodes.begin() + 3, other.nodes.begin() + 5);
  other.nodes[2].cost.flops *= 3;
  OpNode extra;
  extra.kind = "aten::gelu";
  extra.module_path = "blocks.0.sub0";
  extra.cost = {true, true, 50, 1, 1};
  other.nodes.insert(other.nodes.begin() + 3, extra);
  other.edges.clear();
  for (std::size_t i = 1; i < other.nodes.size(); ++i)
    other.edges.push_back({int(i - 1), int(i), "", DiffStatus::kUnchanged});

  OpGraph d = diff_graphs(base, other);
  ASSERT_EQ(d.nodes.size(), 7u);  // 5 of other + 2 removed
  std::map<std::string, DiffStatus> state;
  for (const auto& n : d.nodes) state[n.identity()] = n.diff;
  EXPECT_EQ(state["blocks.0.sub0|aten::add#0"], DiffStatus::kUnchanged);
  EXPECT_EQ(state["blocks.0.sub0|aten::linear#0"], DiffStatus::kChanged);
  EXPECT_EQ(state["blocks.0.sub0|aten::gelu#0"], DiffStatus::kNew);
  EXPECT_EQ(state["blocks.0.sub1|aten::add#0"], DiffStatus::kVanished);
  EXPECT_EQ(state["blocks.0.sub1|aten::linear#0"], DiffStatus::kVanished);
  int removed_edges = 0;
  for (const auto& e : d.edges) removed_edges += e.diff == DiffStatus::kVanished ? 1 : 0;
  EXPECT_EQ(removed_edges, 4);  // into, through and out of sub1, and the residual sub0.add->sub1.add

  // Collapsed: the sub1 box is all removed, the sub0 box mixed, so changed.
  ViewGraph v = collapse(d, 3);
  for (const auto& n : v.nodes) {
    if (n.module_path == "blocks.0.sub1") {
      EXPECT_EQ(n.diff, DiffStatus::kVanished);
    }
    if (n.module_path == "blocks.0.sub0") {
      EXPECT_EQ(n.diff, DiffStatus::kChanged);
    }
  }
}

// The DOT of a diff words and colours each status as the engine and every report do (diff_status.h,
// verdict_palette.h): VANISHED red and dashed, NEW green, never a word or a colour of its own.
TEST(Diff, DotSpeaksTheEnginesWordsInTheOnePalette) {
  OpGraph base = testing::synthetic_graph(1, 2, 2);
  OpGraph other = base;
  other.nodes.erase(other.nodes.begin() + 3, other.nodes.begin() + 5);  // sub1 vanished
  OpNode extra;
  extra.kind = "aten::gelu";
  extra.module_path = "blocks.0.sub0";
  other.nodes.push_back(extra);
  other.edges.clear();
  const std::string dot = write_dot(collapse(diff_graphs(base, other), kOpLevel));
  EXPECT_NE(dot.find("\\nVANISHED\""), std::string::npos) << dot;
  EXPECT_NE(dot.find("\\nNEW\""), std::string::npos);
  EXPECT_NE(dot.find("VANISHED (red, dashed)"), std::string::npos);
  EXPECT_NE(dot.find("NEW (green)"), std::string::npos);
  EXPECT_NE(dot.find(std::string("color=\"") + verdict_color(Verdict::kVanished).text + "\""),
            std::string::npos);
  EXPECT_NE(dot.find(std::string("color=\"") + verdict_color(Verdict::kNew).text + "\""), std::string::npos);
  for (const char* word : {"removed", "added", "\\nnew\""})
    EXPECT_EQ(dot.find(word), std::string::npos) << word;
  EXPECT_STREQ(diff_style(DiffStatus::kVanished).border, diff_status_color(DiffStatus::kVanished).text);
  EXPECT_STREQ(to_string(DiffStatus::kVanished), "VANISHED");
}

TEST(Diff, NodeThatRanInOneRunOnlyIsChanged) {
  // Both versions hold both branches of an `if`; the base ran sub0 only, the other sub1 only.
  OpGraph base = testing::synthetic_graph(1, 2, 2);
  OpGraph other = base;
  for (auto& n : base.nodes)
    if (n.module_path == "blocks.0.sub1") n.cost = {};
  for (auto& n : other.nodes)
    if (n.module_path == "blocks.0.sub0") n.cost = {};
  base.has_costs = other.has_costs = true;
  OpGraph d = diff_graphs(base, other);
  int changed = 0;
  for (const auto& n : d.nodes) {
    bool branch = n.module_path == "blocks.0.sub0" || n.module_path == "blocks.0.sub1";
    EXPECT_EQ(n.diff, branch ? DiffStatus::kChanged : DiffStatus::kUnchanged) << n.identity();
    changed += n.diff == DiffStatus::kChanged ? 1 : 0;
  }
  EXPECT_EQ(changed, 4);
  // Without costs (graphs of .pt files) nothing ran: the same graphs are the same.
  base.has_costs = false;
  for (const auto& n : diff_graphs(base, other).nodes)
    EXPECT_EQ(n.diff, DiffStatus::kUnchanged) << n.identity();
}

}  // namespace
}  // namespace flopscope::graphs
