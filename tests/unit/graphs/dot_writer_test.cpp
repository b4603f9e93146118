#include "graphs/dot_writer.h"

#include <gtest/gtest.h>

#include "graphs/heat.h"
#include "synthetic_graph.h"

namespace flopscope::graphs {
namespace {

std::size_t count(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (auto pos = text.find(what); pos != std::string::npos; pos = text.find(what, pos + what.size())) ++n;
  return n;
}

TEST(DotWriter, SameInputSameBytes) {
  OpGraph g = testing::synthetic_graph(3, 4, 5);
  std::string a = write_dot(collapse(g, 3));
  std::string b = write_dot(collapse(testing::synthetic_graph(3, 4, 5), 3));
  EXPECT_EQ(a, b);
  EXPECT_EQ(write_dot(collapse(g, kOpLevel)), write_dot(collapse(g, kOpLevel)));
}

TEST(DotWriter, NestedClustersPerModuleAndDepthInTitle) {
  OpGraph g = testing::synthetic_graph(2, 3, 4);
  std::string ops = write_dot(collapse(g, kOpLevel));
  // Clusters: blocks, blocks.0, blocks.1, and 6 subs.
  EXPECT_EQ(count(ops, "subgraph cluster_"), 9u);
  EXPECT_NE(ops.find("op level (no collapse): 26 nodes"), std::string::npos);
  std::string d3 = write_dot(collapse(g, 3));
  EXPECT_EQ(count(d3, "subgraph cluster_"), 3u);
  EXPECT_NE(d3.find("collapsed to module depth 3: 8 nodes for 26 op nodes"), std::string::npos);
  EXPECT_EQ(count(d3, "shape=box3d"), 6u);
}

TEST(DotWriter, HeatColoursAndLegend) {
  OpGraph g = testing::synthetic_graph(1, 1, 4);  // FLOPs 1000..4000
  std::string dot = write_dot(collapse(g, kOpLevel), {CostMetric::kFlops});
  EXPECT_NE(dot.find("FLOPs per iteration"), std::string::npos);
  EXPECT_NE(dot.find("max 4 kFLOP"), std::string::npos);
  EXPECT_EQ(count(dot, std::string("fillcolor=\"") + HeatScale::fill(0) + "\""), 4u);  // all within a decade
  std::string plain = write_dot(collapse(g, kOpLevel), {std::nullopt});
  EXPECT_EQ(plain.find(HeatScale::fill(0)), std::string::npos);
}

TEST(DotWriter, EscapesQuotesBackslashesAndNewlines) {
  EXPECT_EQ(dot_quote("a\"b\\c\nd"), "\"a\\\"b\\\\c\\nd\"");
  EXPECT_EQ(html_escape("<a & \"b\">"), "&lt;a &amp; &quot;b&quot;&gt;");
  OpGraph g = testing::synthetic_graph(1, 1, 1);
  g.title = "we\"ird\\name";
  g.nodes[1].label = "x\"y";
  std::string dot = write_dot(collapse(g, kOpLevel));
  EXPECT_NE(dot.find("we\\\"ird\\\\name"), std::string::npos);
  EXPECT_NE(dot.find("x\\\"y"), std::string::npos);
}

TEST(HeatScale, DecadeBuckets) {
  HeatScale s({1000, 1});
  EXPECT_EQ(s.bucket(1000), 0);
  EXPECT_EQ(s.bucket(101), 0);
  EXPECT_EQ(s.bucket(99), 1);
  EXPECT_EQ(s.bucket(0.01), HeatScale::kBuckets - 1);
  EXPECT_EQ(s.bucket(0), -1);
  EXPECT_EQ(format_metric(1234567, CostMetric::kFlops), "1.23 MFLOPs");
  EXPECT_EQ(format_metric(12345, CostMetric::kTime), "12.3 \xC2\xB5s");
  EXPECT_EQ(format_metric(999, CostMetric::kBytes), "999 B");
  EXPECT_EQ(format_metric(-2500, CostMetric::kFlops), "-2.5 kFLOPs");
}

}  // namespace
}  // namespace flopscope::graphs
