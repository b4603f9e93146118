#include <gtest/gtest.h>

#include "flops_test_util.h"

namespace flopscope::testing {
namespace {

TEST(PoolingFlops, MaxPoolResnetStem) {
  // max_pool2d_with_indices(self, kernel, stride, padding, dilation, ceil_mode): 112 -> 56
  auto r = eval("aten::max_pool2d_with_indices",
                {F({1, 64, 112, 112}), S("[3, 3]"), S("[2, 2]"), S("[1, 1]"), S("[1, 1]"), S("False")});
  ASSERT_TRUE(r.known);
  double out = 64.0 * 56 * 56;
  EXPECT_DOUBLE_EQ(r.flops, out * 9);
  EXPECT_DOUBLE_EQ(r.bytes_written, out * (4 + 8));
  auto plain = eval("aten::max_pool2d",
                    {F({1, 64, 112, 112}), S("[3, 3]"), S("[2, 2]"), S("[1, 1]"), S("[1, 1]"), S("False")});
  EXPECT_DOUBLE_EQ(plain.bytes_written, out * 4);
}

TEST(PoolingFlops, CeilModeAndDefaultStride) {
  auto floor_mode =
      eval("aten::max_pool1d", {F({1, 1, 5}), S("[2]"), S("[2]"), S("[0]"), S("[1]"), S("False")});
  EXPECT_DOUBLE_EQ(floor_mode.bytes_written, 2 * 4);
  auto ceil_mode =
      eval("aten::max_pool1d", {F({1, 1, 5}), S("[2]"), S("[2]"), S("[0]"), S("[1]"), S("True")});
  EXPECT_DOUBLE_EQ(ceil_mode.bytes_written, 3 * 4);
  // avg_pool2d(self, kernel, stride = [] -> kernel, padding, ceil_mode, count_include_pad, divisor)
  auto avg = eval("aten::avg_pool2d",
                  {F({1, 2, 8, 8}), S("[2, 2]"), S("[]"), S("[0, 0]"), S("False"), S("True"), S("None")});
  EXPECT_DOUBLE_EQ(avg.flops, 2.0 * 16 * (4 + 1));
}

TEST(PoolingFlops, AdaptiveWindows) {
  auto gap = eval("aten::adaptive_avg_pool2d", {F({1, 512, 7, 7}), S("[1, 1]")});
  EXPECT_DOUBLE_EQ(gap.flops, 512 * 49 + 512);
  EXPECT_DOUBLE_EQ(gap.bytes_written, 512 * 4);
  // 5 -> 3: windows [0,2), [1,4), [3,5) = 2 + 3 + 2 = 7 elements.
  auto odd = eval("aten::adaptive_avg_pool1d", {F({1, 1, 5}), S("[3]")});
  EXPECT_DOUBLE_EQ(odd.flops, 7 + 3);
  auto same = eval("aten::adaptive_avg_pool2d", {F({1, 256, 6, 6}), S("[6, 6]")});
  EXPECT_DOUBLE_EQ(same.flops, 2 * 256 * 36);
}

TEST(PoolingFlops, Upsample) {
  auto nearest = eval("aten::upsample_nearest2d", {F({1, 3, 4, 4}), S("None"), S("[2., 2.]")});
  ASSERT_TRUE(nearest.known);
  EXPECT_DOUBLE_EQ(nearest.flops, 0);
  EXPECT_DOUBLE_EQ(nearest.bytes_written, 3 * 64 * 4);
  auto bilinear = eval("aten::upsample_bilinear2d", {F({1, 3, 4, 4}), S("[8, 8]"), S("False"), S(""), S("")});
  EXPECT_DOUBLE_EQ(bilinear.flops, 9 * 3 * 64);
  EXPECT_FALSE(bilinear.estimate);
}

}  // namespace
}  // namespace flopscope::testing
