#include "analyzer/latency.h"

#include <gtest/gtest.h>

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
  EXPECT_EQ(s.values.front(), 5);  // iteration order kept
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

}  // namespace
}  // namespace flopscope
