#include <gtest/gtest.h>

#include "flops_test_util.h"

namespace flopscope::testing {
namespace {

TEST(MatmulFlops, MmIsTwoMNK) {
  auto r = eval("aten::mm", {F({2, 3}), F({3, 4})});
  ASSERT_TRUE(r.known);
  EXPECT_DOUBLE_EQ(r.macs, 24);
  EXPECT_DOUBLE_EQ(r.flops, 48);
  EXPECT_DOUBLE_EQ(r.bytes_read, (6 + 12) * 4);
  EXPECT_DOUBLE_EQ(r.bytes_written, 8 * 4);
}

TEST(MatmulFlops, OneDimensionalCases) {
  auto dot = eval("aten::matmul", {F({5}), F({5})});
  EXPECT_DOUBLE_EQ(dot.macs, 5);
  EXPECT_DOUBLE_EQ(dot.bytes_written, 4);  // a scalar
  auto vec_mat = eval("aten::matmul", {F({3}), F({3, 4})});
  EXPECT_DOUBLE_EQ(vec_mat.macs, 12);
  EXPECT_DOUBLE_EQ(vec_mat.bytes_written, 4 * 4);
  auto mat_vec = eval("aten::matmul", {F({2, 3}), F({3})});
  EXPECT_DOUBLE_EQ(mat_vec.macs, 6);
  EXPECT_DOUBLE_EQ(mat_vec.bytes_written, 2 * 4);
  auto batched_vec = eval("aten::matmul", {F({7, 2, 3}), F({3})});
  EXPECT_DOUBLE_EQ(batched_vec.macs, 42);
  EXPECT_DOUBLE_EQ(eval("aten::dot", {F({9}), F({9})}).flops, 18);
  EXPECT_DOUBLE_EQ(eval("aten::mv", {F({4, 9}), F({9})}).macs, 36);
}

TEST(MatmulFlops, BroadcastsBatchDimensions) {
  // [2,1,4,3] @ [5,3,6] -> [2,5,4,6]
  auto r = eval("aten::matmul", {F({2, 1, 4, 3}), F({5, 3, 6})});
  ASSERT_TRUE(r.known);
  EXPECT_DOUBLE_EQ(r.macs, 2 * 5 * 4 * 6 * 3);
  EXPECT_DOUBLE_EQ(r.bytes_written, 2 * 5 * 4 * 6 * 4);
}

TEST(MatmulFlops, MismatchedInnerDimensionIsUnknown) {
  EXPECT_FALSE(eval("aten::matmul", {F({2, 3}), F({4, 5})}).known);
  EXPECT_FALSE(eval("aten::mm", {F({2, 3, 4}), F({4, 5})}).known);
  EXPECT_FALSE(eval("aten::bmm", {F({2, 3}), F({3, 5})}).known);
}

TEST(MatmulFlops, LinearCountsBiasOncePerOutput) {
  auto r = eval("aten::linear", {F({8, 16}), F({32, 16}), F({32})});
  EXPECT_DOUBLE_EQ(r.macs, 8 * 32 * 16);
  EXPECT_DOUBLE_EQ(r.flops, 2 * 8 * 32 * 16 + 8 * 32);
  EXPECT_DOUBLE_EQ(r.bytes_read, (8 * 16 + 32 * 16 + 32) * 4);
  auto no_bias = eval("aten::linear", {F({2, 8, 16}), F({32, 16}), S("")});
  EXPECT_DOUBLE_EQ(no_bias.flops, 2 * 2 * 8 * 32 * 16);
}

TEST(MatmulFlops, AddmmAddmvBaddbmmAddbmm) {
  auto addmm = eval("aten::addmm", {F({4}), F({2, 3}), F({3, 4}), S("1"), S("1")});
  EXPECT_DOUBLE_EQ(addmm.macs, 24);
  EXPECT_DOUBLE_EQ(addmm.flops, 48 + 8);
  auto beta0 = eval("aten::addmm", {F({4}), F({2, 3}), F({3, 4}), S("0"), S("1")});
  EXPECT_DOUBLE_EQ(beta0.flops, 48);
  auto addmv = eval("aten::addmv", {F({2}), F({2, 3}), F({3}), S("1"), S("1")});
  EXPECT_DOUBLE_EQ(addmv.macs, 6);
  EXPECT_DOUBLE_EQ(addmv.flops, 12 + 2);
  auto baddbmm = eval("aten::baddbmm", {F({2, 3, 5}), F({2, 3, 4}), F({2, 4, 5}), S("1"), S("1")});
  EXPECT_DOUBLE_EQ(baddbmm.macs, 2 * 3 * 5 * 4);
  EXPECT_DOUBLE_EQ(baddbmm.flops, 240 + 30);
  auto addbmm = eval("aten::addbmm", {F({3, 5}), F({2, 3, 4}), F({2, 4, 5}), S("1"), S("1")});
  EXPECT_DOUBLE_EQ(addbmm.macs, 120);
  EXPECT_DOUBLE_EQ(addbmm.flops, 240 + 15);
  EXPECT_DOUBLE_EQ(addbmm.bytes_written, 15 * 4);
}

TEST(MatmulFlops, AddmmActivationAddsTheActivationPerOutputElement) {
  // The encoder layer's fast path: linear1 and relu (or gelu) in one op.
  auto relu = eval("aten::_addmm_activation", {F({4}), F({2, 3}), F({3, 4}), S("1"), S("1"), S("False")});
  EXPECT_DOUBLE_EQ(relu.macs, 24);
  EXPECT_DOUBLE_EQ(relu.flops, 48 + 8 + 8);
  auto gelu = eval("aten::_addmm_activation", {F({4}), F({2, 3}), F({3, 4}), S("1"), S("1"), S("True")});
  EXPECT_DOUBLE_EQ(gelu.flops, 48 + 8 + 5 * 8);
  EXPECT_DOUBLE_EQ(gelu.bytes_written, 8 * 4);
}

TEST(MatmulFlops, OutVariantTensorIsNotRead) {
  auto r = eval("aten::matmul", {F({2, 3}), F({3, 4}), F({2, 4})});
  EXPECT_DOUBLE_EQ(r.bytes_read, (6 + 12) * 4);
}

TEST(MatmulFlops, BFloat16SizesBytes) {
  auto r = eval("aten::mm", {T("bfloat16", {2, 3}), T("bfloat16", {3, 4})});
  EXPECT_DOUBLE_EQ(r.bytes_read, (6 + 12) * 2);
  EXPECT_DOUBLE_EQ(r.bytes_written, 8 * 2);
}

TEST(EinsumFlops, TwoOperandContraction) {
  auto r = eval("aten::einsum", {S("bhqd,bhkd->bhqk"), F({2, 4, 8, 16}), F({2, 4, 10, 16})});
  ASSERT_TRUE(r.known);
  EXPECT_DOUBLE_EQ(r.macs, 2 * 4 * 8 * 10 * 16);
  EXPECT_DOUBLE_EQ(r.flops, 2 * r.macs);
  EXPECT_DOUBLE_EQ(r.bytes_written, 2 * 4 * 8 * 10 * 4);
}

TEST(EinsumFlops, ImplicitOutputEllipsisAndChains) {
  auto implicit = eval("aten::einsum", {S("'ij,jk'"), F({3, 4}), F({4, 5})});
  EXPECT_DOUBLE_EQ(implicit.macs, 60);
  EXPECT_DOUBLE_EQ(implicit.bytes_written, 15 * 4);
  auto ellipsis = eval("aten::einsum", {S("...ij,...jk->...ik"), F({7, 3, 4}), F({7, 4, 5})});
  EXPECT_DOUBLE_EQ(ellipsis.macs, 7 * 60);
  EXPECT_DOUBLE_EQ(ellipsis.bytes_written, 7 * 15 * 4);
  // Left to right: ij,jk -> ik (2*3*4), then ik,kl -> il (2*4*5).
  auto chain = eval("aten::einsum", {S("ij,jk,kl->il"), F({2, 3}), F({3, 4}), F({4, 5})});
  EXPECT_DOUBLE_EQ(chain.macs, 24 + 40);
  OpArg list = S("[[3, 4], [4, 5]]");
  list.dtype = "float32";
  EXPECT_DOUBLE_EQ(eval("aten::einsum", {S("ij,jk->ik"), list, S("")}).macs, 60);
  auto reduce = eval("aten::einsum", {S("ij->j"), F({3, 4})});
  EXPECT_DOUBLE_EQ(reduce.flops, 12);
  EXPECT_DOUBLE_EQ(reduce.macs, 0);
  EXPECT_DOUBLE_EQ(eval("aten::einsum", {S("ij->ji"), F({3, 4})}).flops, 0);
  EXPECT_FALSE(eval("aten::einsum", {S("ij,jk->ik"), F({3, 4, 5}), F({4, 5})}).known);
}

}  // namespace
}  // namespace flopscope::testing
