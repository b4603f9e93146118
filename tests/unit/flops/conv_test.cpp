#include <gtest/gtest.h>

#include "flops_test_util.h"

namespace flopscope::testing {
namespace {

TEST(ConvFlops, Resnet50Stem) {
  // conv2d(input, weight, bias, stride, padding, dilation, groups): 7x7 stride 2 pad 3 -> 112x112
  auto r = eval("aten::conv2d", {F({1, 3, 224, 224}), F({64, 3, 7, 7}), S(""), S("[2, 2]"), S("[3, 3]"),
                                 S("[1, 1]"), S("1")});
  ASSERT_TRUE(r.known);
  EXPECT_DOUBLE_EQ(r.macs, 64.0 * 112 * 112 * 3 * 49);
  EXPECT_DOUBLE_EQ(r.flops, 2 * r.macs);
  EXPECT_DOUBLE_EQ(r.bytes_written, 64.0 * 112 * 112 * 4);
  EXPECT_FALSE(r.estimate);
}

TEST(ConvFlops, GroupedWithBias) {
  auto r = eval("aten::conv2d", {F({2, 8, 10, 10}), F({16, 2, 3, 3}), F({16}), S("[1, 1]"), S("[1, 1]"),
                                 S("[1, 1]"), S("4")});
  EXPECT_DOUBLE_EQ(r.macs, 2.0 * 16 * 100 * 2 * 9);
  EXPECT_DOUBLE_EQ(r.flops, 2 * 57600 + 2.0 * 16 * 100);
}

TEST(ConvFlops, DepthwiseAsInMobilenet) {
  auto r = eval("aten::conv2d", {F({1, 32, 112, 112}), F({32, 1, 3, 3}), S(""), S("[1, 1]"), S("[1, 1]"),
                                 S("[1, 1]"), S("32")});
  EXPECT_DOUBLE_EQ(r.macs, 32.0 * 112 * 112 * 9);
}

TEST(ConvFlops, StridedAndDilated) {
  // effective kernel 5: (10 - 4 - 1) / 2 + 1 = 3
  auto r = eval("aten::conv2d",
                {F({1, 1, 10, 10}), F({1, 1, 3, 3}), S(""), S("[2, 2]"), S("[0, 0]"), S("[2, 2]"), S("1")});
  EXPECT_DOUBLE_EQ(r.macs, 9 * 9);
  EXPECT_DOUBLE_EQ(r.bytes_written, 9 * 4);
}

TEST(ConvFlops, Conv1dAnd3dAndSamePadding) {
  auto c1 = eval("aten::conv1d", {F({2, 4, 20}), F({8, 4, 5}), S(""), S("[1]"), S("[0]"), S("[1]"), S("1")});
  EXPECT_DOUBLE_EQ(c1.macs, 2.0 * 8 * 16 * 4 * 5);
  auto c3 = eval("aten::conv3d", {F({1, 2, 4, 4, 4}), F({3, 2, 3, 3, 3}), S(""), S("[1, 1, 1]"),
                                  S("[1, 1, 1]"), S("[1, 1, 1]"), S("1")});
  EXPECT_DOUBLE_EQ(c3.macs, 3.0 * 64 * 2 * 27);
  auto same = eval("aten::conv2d",
                   {F({1, 2, 9, 9}), F({3, 2, 3, 3}), S(""), S("[1, 1]"), S("'same'"), S("[1, 1]"), S("1")});
  EXPECT_DOUBLE_EQ(same.macs, 3.0 * 81 * 2 * 9);
}

TEST(ConvFlops, Transposed) {
  // conv_transpose2d(input, weight[C_in, C_out/g, k, k], bias, stride, padding, output_padding, groups,
  // dilation): out = (5-1)*2 - 2 + 2 + 1 + 1 = 10
  auto r = eval("aten::conv_transpose2d", {F({1, 4, 5, 5}), F({4, 2, 3, 3}), F({2}), S("[2, 2]"), S("[1, 1]"),
                                           S("[1, 1]"), S("1"), S("[1, 1]")});
  ASSERT_TRUE(r.known);
  EXPECT_DOUBLE_EQ(r.macs, 4.0 * 25 * 2 * 9);
  EXPECT_DOUBLE_EQ(r.bytes_written, 2.0 * 10 * 10 * 4);
  EXPECT_DOUBLE_EQ(r.flops, 2 * 1800 + 200);
  // The same through aten::convolution(..., transposed=True, output_padding, groups).
  auto c = eval("aten::convolution", {F({1, 4, 5, 5}), F({4, 2, 3, 3}), F({2}), S("[2, 2]"), S("[1, 1]"),
                                      S("[1, 1]"), S("True"), S("[1, 1]"), S("1")});
  EXPECT_DOUBLE_EQ(c.macs, r.macs);
  EXPECT_DOUBLE_EQ(c.bytes_written, r.bytes_written);
}

TEST(ConvFlops, BackendEntryPoints) {
  double expected = 64.0 * 112 * 112 * 3 * 49;
  auto conv = eval("aten::_convolution",
                   {F({1, 3, 224, 224}), F({64, 3, 7, 7}), S(""), S("[2, 2]"), S("[3, 3]"), S("[1, 1]"),
                    S("False"), S("[0, 0]"), S("1"), S("False"), S("False"), S("True"), S("True")});
  EXPECT_DOUBLE_EQ(conv.macs, expected);
  // mkldnn_convolution(self, weight, bias, padding, stride, dilation, groups)
  auto mkldnn = eval("aten::mkldnn_convolution", {F({1, 3, 224, 224}), F({64, 3, 7, 7}), S(""), S("[3, 3]"),
                                                  S("[2, 2]"), S("[1, 1]"), S("1")});
  EXPECT_DOUBLE_EQ(mkldnn.macs, expected);
  // thnn_conv2d(self, weight, kernel_size, bias, stride, padding)
  auto thnn = eval("aten::thnn_conv2d",
                   {F({1, 64, 14, 14}), F({384, 64, 1, 1}), S("[1, 1]"), S(""), S("[1, 1]"), S("[0, 0]")});
  EXPECT_DOUBLE_EQ(thnn.macs, 384.0 * 196 * 64);
  // cudnn_convolution(self, weight, padding, stride, dilation, groups, ...)
  auto cudnn =
      eval("aten::cudnn_convolution", {F({1, 3, 224, 224}), F({64, 3, 7, 7}), S("[3, 3]"), S("[2, 2]"),
                                       S("[1, 1]"), S("1"), S("False"), S("False"), S("True")});
  EXPECT_DOUBLE_EQ(cudnn.macs, expected);
}

TEST(ConvFlops, MissingArgumentsAreAnEstimate) {
  auto r = eval("aten::conv2d", {F({1, 3, 8, 8}), F({4, 3, 3, 3})});
  ASSERT_TRUE(r.known);
  EXPECT_TRUE(r.estimate);
  EXPECT_DOUBLE_EQ(r.macs, 4.0 * 36 * 27);  // stride 1, no padding assumed
}

TEST(ConvFlops, ImpossibleShapesAreUnknown) {
  EXPECT_FALSE(eval("aten::conv2d",
                    {F({1, 3, 2, 2}), F({4, 3, 5, 5}), S(""), S("[1, 1]"), S("[0, 0]"), S("[1, 1]"), S("1")})
                   .known);
}

}  // namespace
}  // namespace flopscope::testing
