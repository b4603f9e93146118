#include <gtest/gtest.h>

#include "flops_test_util.h"

namespace flopscope::testing {
namespace {

TEST(DataMovementFlops, ViewsMoveNothing) {
  for (const char* op : {"aten::view", "aten::reshape", "aten::permute", "aten::transpose", "aten::t",
                         "aten::expand", "aten::slice", "aten::select", "aten::unsqueeze", "aten::as_strided",
                         "aten::detach", "aten::_reshape_alias", "aten::_unsafe_view", "aten::empty",
                         "aten::empty_like", "aten::split", "aten::chunk", "aten::narrow"}) {
    auto r = eval(op, {F({2, 3}), S("[6]")});
    ASSERT_TRUE(r.known) << op;
    EXPECT_DOUBLE_EQ(r.flops + r.bytes_read + r.bytes_written, 0) << op;
  }
}

TEST(DataMovementFlops, CopiesAndCasts) {
  auto clone = eval("aten::clone", {F({1, 4, 64, 64}), S("")});
  EXPECT_DOUBLE_EQ(clone.flops, 0);
  EXPECT_DOUBLE_EQ(clone.bytes_read, 16384 * 4);
  EXPECT_DOUBLE_EQ(clone.bytes_written, 16384 * 4);
  auto copy = eval("aten::copy_", {T("float16", {10}), F({10}), S("False")});
  EXPECT_DOUBLE_EQ(copy.bytes_read, 40);
  EXPECT_DOUBLE_EQ(copy.bytes_written, 20);
  auto cast = eval("aten::_to_copy", {F({10}), S("5"), S(""), S(""), S(""), S("False"), S("")});
  EXPECT_DOUBLE_EQ(cast.bytes_written, 20);  // ScalarType 5 = float16
  auto to_half = eval("aten::to", {F({10}), S("torch.float16"), S("False"), S("False"), S("")});
  EXPECT_DOUBLE_EQ(to_half.bytes_read, 40);
  EXPECT_DOUBLE_EQ(to_half.bytes_written, 20);
  auto to_same = eval("aten::to", {F({10}), S("6"), S("False"), S("False"), S("")});
  EXPECT_DOUBLE_EQ(to_same.bytes_read + to_same.bytes_written, 0);
  auto contiguous = eval("aten::contiguous", {F({1, 197, 12, 64}), S("")});
  EXPECT_TRUE(contiguous.estimate);
  EXPECT_DOUBLE_EQ(contiguous.bytes_written, 197.0 * 768 * 4);
}

TEST(DataMovementFlops, CreationAndFills) {
  auto zeros = eval("aten::zeros", {S("[2, 3]"), S("6"), S(""), S(""), S("")});
  EXPECT_DOUBLE_EQ(zeros.bytes_written, 24);
  auto ones = eval("aten::ones", {S("[64, 64]"), S("11"), S(""), S(""), S("")});
  EXPECT_DOUBLE_EQ(ones.bytes_written, 4096);  // bool
  auto arange = eval("aten::arange", {S("10"), S("4"), S(""), S(""), S("")});
  EXPECT_DOUBLE_EQ(arange.bytes_written, 80);
  auto arange2 = eval("aten::arange", {S("2"), S("10"), S("2"), S("6"), S(""), S(""), S("")});
  EXPECT_DOUBLE_EQ(arange2.bytes_written, 16);
  auto fill = eval("aten::fill_", {F({8, 8}), S("1")});
  EXPECT_DOUBLE_EQ(fill.bytes_written, 256);
  auto uniform = eval("aten::uniform_", {F({8}), S("0"), S("1"), S("")});
  EXPECT_DOUBLE_EQ(uniform.bytes_written, 32);
}

TEST(DataMovementFlops, GathersAndConcatenation) {
  // embedding(weight[512,128], indices[1,64]): 64 rows of 128 floats + the indices.
  auto emb = eval("aten::embedding", {F({512, 128}), T("int64", {1, 64}), S("-1"), S("False"), S("False")});
  EXPECT_DOUBLE_EQ(emb.flops, 0);
  EXPECT_DOUBLE_EQ(emb.bytes_read, 64.0 * 128 * 4 + 64 * 8);
  EXPECT_DOUBLE_EQ(emb.bytes_written, 64.0 * 128 * 4);
  auto sel = eval("aten::index_select", {T("bfloat16", {30522, 512}), S("0"), T("int64", {141})});
  EXPECT_DOUBLE_EQ(sel.bytes_written, 141.0 * 512 * 2);
  auto cat = eval("aten::cat", {F({1, 1, 768}), F({1, 196, 768}), S("1")});
  EXPECT_DOUBLE_EQ(cat.bytes_read, 197.0 * 768 * 4);
  EXPECT_DOUBLE_EQ(cat.bytes_written, 197.0 * 768 * 4);
  auto unknown_list = eval("aten::cat", {S(""), S("1")});
  EXPECT_TRUE(unknown_list.known);
  EXPECT_TRUE(unknown_list.estimate);
  auto pad = eval("aten::constant_pad_nd", {F({1, 2, 3}), S("[1, 1, 2, 0]"), S("0")});
  EXPECT_DOUBLE_EQ(pad.bytes_written, 1.0 * 4 * 5 * 4);
}

TEST(DataMovementFlops, DropoutIsIdentityInInference) {
  auto eval_mode = eval("aten::dropout", {F({1, 197, 768}), S("0.1"), S("False")});
  EXPECT_DOUBLE_EQ(eval_mode.flops + eval_mode.bytes_read + eval_mode.bytes_written, 0);
  auto train = eval("aten::dropout", {F({10}), S("0.1"), S("True")});
  EXPECT_DOUBLE_EQ(train.flops, 20);
}

}  // namespace
}  // namespace flopscope::testing
