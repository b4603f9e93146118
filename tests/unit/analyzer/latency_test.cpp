#include "analyzer/latency.h"

#include <gtest/gtest.h>

#include <random>

namespace flopscope {
namespace {

TEST(Latency, PercentilesInterpolateLikeNumpy) {
  LatencyStats s = latency_stats({5, 1, 4, 2, 3});
  EXPECT_EQ(s.samples, 5);
  EXPECT_DOUBLE_EQ(s.p50, 3);
  EXPECT_DOUBLE_EQ(s.mean, 3);
  EXPECT_DOUBLE_EQ(s.p90, 4.6);  // numpy.percentile([1..5], 90)
  EXPECT_DOUBLE_EQ(s.min, 1);
  EXPECT_DOUBLE_EQ(s.max, 5);
  EXPECT_EQ(s.values.dense().front(), 5);  // iteration order kept
}

// The sparse series (zeros implied) gives the statistics of the dense values it stands for, whatever the
// order entries arrive in and wherever the zeros fall among negative and positive values.
TEST(Latency, SparseSeriesStatisticsEqualTheDenseOnes) {
  std::mt19937 rng(7);
  for (int round = 0; round < 200; ++round) {
    const std::size_t n = 1 + rng() % 40;
    std::vector<double> dense(n, 0.0);
    IterationSeries series(n);
    for (std::size_t k = 0, adds = rng() % (2 * n); k < adds; ++k) {
      const std::size_t it = rng() % n;
      const double v = static_cast<double>(static_cast<int>(rng() % 200) - 50);
      dense[it] += v;
      series.add(it, v);
    }
    LatencyStats d = latency_stats(dense), s = latency_stats(series);
    ASSERT_EQ(s.samples, static_cast<int>(n));
    EXPECT_DOUBLE_EQ(s.p50, d.p50);
    EXPECT_DOUBLE_EQ(s.p90, d.p90);
    EXPECT_DOUBLE_EQ(s.p99, d.p99);
    EXPECT_DOUBLE_EQ(s.min, d.min);
    EXPECT_DOUBLE_EQ(s.max, d.max);
    EXPECT_NEAR(s.mean, d.mean, 1e-9);
    EXPECT_EQ(s.values.dense(), dense);
    for (std::size_t i = 0; i < n; ++i) EXPECT_EQ(s.values.at(i), dense[i]);
  }
}

TEST(Latency, SparseSeriesKeepsOnlyNonZeroIterations) {
  IterationSeries s(1000000);
  s.add(999999, 3);
  s.add(5, 2);
  s.add(5, -2);  // sums to zero: dropped
  s.add(7, 1);
  s.normalise();
  ASSERT_EQ(s.entries().size(), 2u);
  EXPECT_EQ(s.entries()[0].first, 7u);
  EXPECT_EQ(s.size(), 1000000u);
  EXPECT_EQ(latency_stats(s).p50, 0);
  EXPECT_EQ(latency_stats(s).max, 3);
}

TEST(Latency, MedianDifferenceSignificanceFollowsTheData) {
  std::vector<double> a{100, 101, 99, 100, 102, 98, 100, 101, 99, 100};
  std::vector<double> faster{80, 81, 79, 80, 82, 78, 80, 81, 79, 80};
  std::vector<double> same{100, 99, 101, 100, 98, 102, 100, 99, 101, 100};
  MedianDifference d = median_difference(a, faster);
  EXPECT_TRUE(d.significant);
  EXPECT_NEAR(d.diff, -20, 1e-9);
  EXPECT_LT(d.ci_high, 0);
  MedianDifference n = median_difference(a, same);
  EXPECT_FALSE(n.significant);
  EXPECT_LE(n.ci_low, 0);
  EXPECT_GE(n.ci_high, 0);
}

// Tail percentiles from too few iterations are the extremes: shown as "-", and the note says why.
TEST(Latency, TailPercentilesNeedEnoughIterations) {
  LatencyStats five = latency_stats(std::vector<double>{1e6, 2e6, 3e6, 4e6, 5e6});
  EXPECT_EQ(percentile_text(five, 50), "3 ms");
  EXPECT_EQ(percentile_text(five, 90), "-");
  EXPECT_EQ(percentile_text(five, 99), "-");
  EXPECT_NE(percentile_note(5).find("5 iterations"), std::string::npos);
  std::vector<double> many(100, 1e6);
  many.back() = 9e6;
  LatencyStats hundred = latency_stats(many);
  EXPECT_NE(percentile_text(hundred, 90), "-");
  EXPECT_NE(percentile_text(hundred, 99), "-");
  EXPECT_EQ(percentile_note(100), "");
  EXPECT_EQ(percentile_text(latency_stats(std::vector<double>(10, 2e6)), 90), "2 ms");
}

}  // namespace
}  // namespace flopscope
