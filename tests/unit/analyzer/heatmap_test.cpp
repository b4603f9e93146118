#include "analyzer/heatmap.h"

#include <gtest/gtest.h>

namespace flopscope {
namespace {

ModuleSummary module(const std::string& path, std::vector<double> self) {
  ModuleSummary m;
  m.path = path;
  m.self_time = latency_stats(std::move(self));
  return m;
}

RunSummary three_modules() {
  RunSummary s;
  s.iterations = 4;
  s.modules.push_back(module("", {100, 100, 100, 100}));  // the root is never a row
  s.modules.push_back(module("a", {10, 20, 30, 40}));
  s.modules.push_back(module("b", {1000, 1000, 5000, 1000}));
  s.modules.push_back(module("container", {0, 0, 0, 0}));  // no self time: its children show it
  return s;
}

TEST(Heatmap, RowsAreModulesWithSelfTimeSlowestFirst) {
  HeatmapData d = heatmap_data(three_modules(), 20);
  ASSERT_EQ(d.rows.size(), 2u);
  EXPECT_EQ(d.rows[0].path, "b");
  EXPECT_EQ(d.rows[1].path, "a");
  EXPECT_EQ(d.iterations, 4);
  EXPECT_DOUBLE_EQ(d.min_ns, 10);
  EXPECT_DOUBLE_EQ(d.max_ns, 5000);
  EXPECT_DOUBLE_EQ(d.value(0, 2), 5000);
  EXPECT_DOUBLE_EQ(d.value(1, 9), 0);  // past the last iteration
  EXPECT_DOUBLE_EQ(d.scale(5000), 1);
  EXPECT_DOUBLE_EQ(d.scale(10), 0);
  EXPECT_GT(d.scale(100), 0.3);
  EXPECT_LT(d.scale(100), 0.45);  // log scale: 100 is a third of the way from 10 to 5000
  EXPECT_EQ(heatmap_data(three_modules(), 1).rows.size(), 1u);
}

TEST(Heatmap, HistogramBinsEveryValueOnce) {
  LatencyStats s = latency_stats({1, 2, 2, 3, 10, 10, 10, 10, 10, 10, 10, 10});
  LatencyHistogram h = latency_histogram(s);
  ASSERT_EQ(h.counts.size(), 6u);  // twelve values, two a bin
  int total = 0;
  for (int c : h.counts) total += c;
  EXPECT_EQ(total, 12);
  EXPECT_EQ(h.counts.back(), 8);
  EXPECT_EQ(h.peak, 8);
  EXPECT_DOUBLE_EQ(h.lo, 1);
  EXPECT_DOUBLE_EQ(h.hi, 10);
  // One distinct value still gives a range to draw.
  LatencyHistogram flat = latency_histogram(latency_stats({5, 5}));
  EXPECT_GT(flat.hi, flat.lo);
}

}  // namespace
}  // namespace flopscope
