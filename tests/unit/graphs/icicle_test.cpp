// The module icicle: widths proportional to inclusive cost, children in module order inside their parent,
// zoom to a module, honest notes, and SVG text escaped.
#include "graphs/icicle.h"

#include <gtest/gtest.h>

namespace flopscope::graphs {
namespace {

// root (100) -> a (60) -> a.x (30), a.y (20); root -> b (30)
RunSummary tree() {
  RunSummary s;
  auto add = [&](std::string path, std::string type, int parent, double flops) {
    ModuleSummary m;
    m.path = std::move(path);
    m.type = std::move(type);
    m.parent = parent;
    m.inclusive.flops = flops;
    m.inclusive_time.p50 = flops * 10;
    s.modules.push_back(m);
    int index = static_cast<int>(s.modules.size()) - 1;
    if (parent >= 0) s.modules[static_cast<std::size_t>(parent)].children.push_back(index);
    return index;
  };
  int root = add("", "Model", -1, 100);
  int a = add("a", "Block", root, 60);
  add("a.x", "Linear", a, 30);
  add("a.y", "Linear", a, 20);
  add("b", "Block", root, 30);
  s.ops_total = s.ops_with_formula = 10;
  s.index_paths();
  return s;
}

const IcicleCell& cell(const Icicle& icicle, const std::string& label) {
  for (const auto& c : icicle.cells)
    if (c.label == label) return c;
  throw std::runtime_error("no cell " + label);
}

TEST(Icicle, WidthsAreSharesOfTheRootAndChildrenNestInOrder) {
  RunSummary s = tree();
  Icicle icicle = icicle_layout(s, {CostMetric::kFlops});
  ASSERT_EQ(icicle.cells.size(), 5u);
  EXPECT_EQ(icicle.depth, 3);
  EXPECT_DOUBLE_EQ(icicle.root_value, 100);
  const auto& root = cell(icicle, "(model)");
  EXPECT_DOUBLE_EQ(root.x0, 0);
  EXPECT_DOUBLE_EQ(root.x1, 1);
  const auto& a = cell(icicle, "a");
  const auto& b = cell(icicle, "b");
  EXPECT_DOUBLE_EQ(a.x0, 0);
  EXPECT_DOUBLE_EQ(a.x1, 0.6);
  EXPECT_DOUBLE_EQ(b.x0, 0.6);
  EXPECT_DOUBLE_EQ(b.x1, 0.9);  // root's own 10% stays empty on the right
  const auto& x = cell(icicle, "x");
  const auto& y = cell(icicle, "y");
  EXPECT_EQ(x.depth, 2);
  EXPECT_DOUBLE_EQ(x.x1 - x.x0, 0.3);
  EXPECT_DOUBLE_EQ(y.x0, x.x1);
  EXPECT_DOUBLE_EQ(y.x1 - y.x0, 0.2);
  EXPECT_TRUE(icicle.notes.empty());
  // One colour per module type.
  EXPECT_STREQ(x.fill, y.fill);
}

TEST(Icicle, ZoomDrawsTheChosenModuleFullWidth) {
  RunSummary s = tree();
  Icicle icicle = icicle_layout(s, {CostMetric::kTime, s.find("a")});
  ASSERT_EQ(icicle.cells.size(), 3u);
  EXPECT_EQ(icicle.cells[0].label, "a");
  EXPECT_DOUBLE_EQ(icicle.cells[0].x1, 1);
  EXPECT_DOUBLE_EQ(cell(icicle, "x").x1, 0.5);  // 300 of 600 ns
  EXPECT_EQ(icicle.measure, "host time P50 per iteration");
}

TEST(Icicle, ChildrenWiderThanTheParentAreScaledAndSaidSo) {
  RunSummary s = tree();
  s.modules[1].inclusive.flops = 40;  // a's children add up to 50
  Icicle icicle = icicle_layout(s, {CostMetric::kFlops});
  EXPECT_DOUBLE_EQ(cell(icicle, "y").x1, cell(icicle, "a").x1);
  ASSERT_EQ(icicle.notes.size(), 1u);
}

TEST(Icicle, UnknownFlopsMakeTheWidthsALowerBound) {
  RunSummary s = tree();
  s.ops_with_formula = 7;
  Icicle icicle = icicle_layout(s, {CostMetric::kFlops});
  ASSERT_EQ(icicle.notes.size(), 1u);
  EXPECT_NE(icicle.notes[0].find("3 ops have no formula"), std::string::npos);
}

TEST(Icicle, TinyCellsAreLeftOut) {
  RunSummary s = tree();
  s.modules[3].inclusive.flops = 0.01;
  Icicle icicle = icicle_layout(s, {CostMetric::kFlops, 0, 0.001});
  EXPECT_EQ(icicle.cells.size(), 4u);
}

TEST(Icicle, SvgEscapesNamesAndControlCharacters) {
  RunSummary s = tree();
  s.modules[4].path = "b<script>\x1b[31m";
  Icicle icicle = icicle_layout(s, {CostMetric::kFlops});
  std::string svg = icicle_svg(icicle, s, "t & <b>");
  EXPECT_EQ(svg.find("<script>"), std::string::npos);
  EXPECT_NE(svg.find("b&lt;script&gt;"), std::string::npos);
  EXPECT_EQ(svg.find('\x1b'), std::string::npos);
  EXPECT_NE(svg.find("t &amp; &lt;b&gt;"), std::string::npos);
}

}  // namespace
}  // namespace flopscope::graphs
