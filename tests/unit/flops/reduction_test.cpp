#include <gtest/gtest.h>

#include "flops_test_util.h"

namespace flopscope::testing {
namespace {

TEST(ReductionFlops, SumAlongDims) {
  auto r = eval("aten::sum", {F({2, 3, 4}), S("[1]"), S("False"), S("")});
  ASSERT_TRUE(r.known);
  EXPECT_DOUBLE_EQ(r.flops, 24);
  EXPECT_DOUBLE_EQ(r.bytes_read, 96);
  EXPECT_DOUBLE_EQ(r.bytes_written, 8 * 4);
  // sum(self, dtype): everything.
  EXPECT_DOUBLE_EQ(eval("aten::sum", {F({2, 3, 4}), S("")}).bytes_written, 4);
  // sum.IntList_out as TorchScript records it (out tensor last).
  auto out = eval("aten::sum", {F({1, 512, 7, 7}), S("[-1, -2]"), S("True"), S(""), F({1, 512, 1, 1})});
  EXPECT_DOUBLE_EQ(out.bytes_written, 512 * 4);
  EXPECT_FALSE(eval("aten::sum", {F({2, 3}), S("[5]"), S("False"), S("")}).known);
}

TEST(ReductionFlops, MeanVarStdNorm) {
  auto mean = eval("aten::mean", {F({1, 512, 7, 7}), S("[-1, -2]"), S("True"), S("")});
  EXPECT_DOUBLE_EQ(mean.flops, 512 * 49 + 512);
  EXPECT_DOUBLE_EQ(mean.bytes_written, 512 * 4);
  auto var = eval("aten::var", {F({4, 10}), S("[1]"), S("True"), S("False")});
  EXPECT_DOUBLE_EQ(var.flops, 4 * 40 + 4);
  auto stdev = eval("aten::std", {F({4, 10}), S("[1]"), S("True"), S("False")});
  EXPECT_DOUBLE_EQ(stdev.flops, 4 * 40 + 2 * 4);
  auto all = eval("aten::var", {F({4, 10}), S("True")});
  EXPECT_DOUBLE_EQ(all.bytes_written, 4);
  auto norm = eval("aten::norm", {F({4, 10}), S("2"), S("[1]"), S("False")});
  EXPECT_DOUBLE_EQ(norm.flops, 2 * 40 + 4);
}

TEST(ReductionFlops, MaxArgmaxAndIndices) {
  auto max_dim = eval("aten::max", {F({4, 10}), S("1"), S("False")});
  EXPECT_DOUBLE_EQ(max_dim.flops, 40);
  EXPECT_DOUBLE_EQ(max_dim.bytes_written, 4 * (4 + 8));  // values and int64 indices
  EXPECT_DOUBLE_EQ(eval("aten::max", {F({4, 10})}).bytes_written, 4);
  auto max_other = eval("aten::max", {F({4, 10}), F({10})});
  EXPECT_DOUBLE_EQ(max_other.bytes_written, 160);
  auto argmax = eval("aten::argmax", {F({4, 10}), S("None"), S("False")});
  EXPECT_DOUBLE_EQ(argmax.bytes_written, 8);
  auto amax = eval("aten::amax", {F({4, 10}), S("[]"), S("False")});
  EXPECT_DOUBLE_EQ(amax.bytes_written, 4);
  EXPECT_DOUBLE_EQ(eval("aten::all", {T("bool", {1, 141})}).bytes_written, 1);
}

TEST(ReductionFlops, ScansAndSelection) {
  EXPECT_DOUBLE_EQ(eval("aten::cumsum", {F({3, 7}), S("1"), S("")}).flops, 21);
  auto topk = eval("aten::topk", {F({2, 100}), S("3"), S("-1"), S("True"), S("True")});
  EXPECT_TRUE(topk.estimate);
  EXPECT_DOUBLE_EQ(topk.flops, 200 * 2);  // log2(3 + 1)
  EXPECT_DOUBLE_EQ(topk.bytes_written, 2 * 3 * (4 + 8));
  auto sort = eval("aten::sort", {F({2, 8}), S("-1"), S("False")});
  EXPECT_DOUBLE_EQ(sort.flops, 16 * 3);
  EXPECT_DOUBLE_EQ(sort.bytes_written, 16 * 12);
}

}  // namespace
}  // namespace flopscope::testing
