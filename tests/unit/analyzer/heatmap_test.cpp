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

// A GPU run's cells are device self time: the module that launches the kernels leads, not the one whose
// host ops take longest.
TEST(Heatmap, GpuRunRowsAreDeviceSelfTime) {
  RunSummary s = three_modules();
  s.has_kernels = true;
  s.modules[1].gpu_self_time = latency_stats({9000, 9000, 9000, 9000});  // "a": slow on the device
  s.modules[2].gpu_self_time = latency_stats({50, 50, 50, 50});
  HeatmapData d = heatmap_data(s, 20);
  EXPECT_EQ(d.clock, Clock::kDevice);
  ASSERT_EQ(d.rows.size(), 2u);
  EXPECT_EQ(d.rows[0].path, "a");
  EXPECT_DOUBLE_EQ(d.max_ns, 9000);
  EXPECT_DOUBLE_EQ(d.min_ns, 50);
  EXPECT_EQ(heatmap_data(three_modules(), 20).clock, Clock::kHost);
}

// Diff mode: both runs on the same rows (a module gone from B keeps an empty row) and one colour scale.
TEST(Heatmap, PairSharesRowsAndScale) {
  RunSummary a = three_modules();
  RunSummary b = three_modules();
  b.modules.erase(b.modules.begin() + 2);  // "b" vanished
  b.modules[1].self_time = latency_stats({1, 2, 3, 4});
  a.index_paths();
  b.index_paths();
  HeatmapPair p = heatmap_pair(a, b, Clock::kHost, 20);
  ASSERT_EQ(p.a.rows.size(), 2u);
  ASSERT_EQ(p.b.rows.size(), 2u);
  EXPECT_EQ(p.a.rows[0].path, "b");
  EXPECT_EQ(p.b.rows[0].path, "b");
  EXPECT_EQ(p.b.rows[0].stats.values.entries().size(), 0u);  // empty in B
  EXPECT_DOUBLE_EQ(p.b.value(1, 3), 4);
  EXPECT_DOUBLE_EQ(p.a.min_ns, 1);     // B's smallest value on A's scale too
  EXPECT_DOUBLE_EQ(p.b.max_ns, 5000);  // A's largest on B's
  EXPECT_DOUBLE_EQ(p.a.scale(40), p.b.scale(40));
  EXPECT_EQ(heatmap_csv(p),
            "run,module,clock,iter_0,iter_1,iter_2,iter_3\n"
            "A,b,host,1000,1000,5000,1000\nA,a,host,10,20,30,40\n"
            "B,b,host,0,0,0,0\nB,a,host,1,2,3,4\n");
}

TEST(Heatmap, ColourBarTicksAreRoundValuesInsideTheRange) {
  HeatmapData d;
  d.min_ns = 10;
  d.max_ns = 4000;
  EXPECT_EQ(heatmap_ticks(d), (std::vector<double>{10, 20, 50, 100, 200, 500, 1000, 2000}));
  d.max_ns = 5000;  // a ninth round value: too many, powers of ten only
  EXPECT_EQ(heatmap_ticks(d), (std::vector<double>{10, 100, 1000}));
  EXPECT_EQ(heatmap_ticks(d, 4), (std::vector<double>{10, 100, 1000}));
  d.max_ns = 1e12;  // eleven decades: thinned powers of ten
  EXPECT_LE(heatmap_ticks(d, 4).size(), 4u);
  d.min_ns = 3100;  // no round value between 3.1 us and 3.9 us: the ends
  d.max_ns = 3900;
  EXPECT_EQ(heatmap_ticks(d), (std::vector<double>{3100, 3900}));
  EXPECT_TRUE(heatmap_ticks(HeatmapData{}).empty());
}

TEST(Heatmap, CsvHasOneLinePerRowAndQuotedPaths) {
  RunSummary s = three_modules();
  s.modules[2].path = "b,\"odd\"";
  std::string csv = heatmap_csv(heatmap_data(s, 20));
  EXPECT_EQ(csv,
            "module,clock,iter_0,iter_1,iter_2,iter_3\n"
            "\"b,\"\"odd\"\"\",host,1000,1000,5000,1000\n"
            "a,host,10,20,30,40\n");
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
