// Elementwise, activation and softmax formulas.
#include <gtest/gtest.h>

#include "flops_test_util.h"

namespace flopscope::testing {
namespace {

TEST(ElementwiseFlops, BroadcastAdd) {
  // [4,1,3] + [5,1] -> [4,5,3]
  auto r = eval("aten::add", {F({4, 1, 3}), F({5, 1}), S("1")});
  ASSERT_TRUE(r.known);
  EXPECT_DOUBLE_EQ(r.flops, 60);
  EXPECT_DOUBLE_EQ(r.macs, 0);
  EXPECT_DOUBLE_EQ(r.bytes_read, (12 + 5) * 4);
  EXPECT_DOUBLE_EQ(r.bytes_written, 60 * 4);
  EXPECT_DOUBLE_EQ(eval("aten::add", {F({4, 1, 3}), F({5, 1}), S("2")}).flops, 120);  // alpha
  EXPECT_FALSE(eval("aten::add", {F({4, 3}), F({5, 1})}).known);
}

TEST(ElementwiseFlops, InPlaceScalarAndOutForms) {
  auto inplace = eval("aten::add_", {F({1, 64, 56, 56}), F({1, 64, 56, 56}), S("1")});
  EXPECT_DOUBLE_EQ(inplace.flops, 64.0 * 56 * 56);
  auto rsub = eval("aten::rsub", {F({2, 3}), S("1"), S("1")});
  EXPECT_DOUBLE_EQ(rsub.flops, 6);
  EXPECT_DOUBLE_EQ(rsub.bytes_read, 24);
  auto div_scalar = eval("aten::div_", {F({1, 512, 1, 1}), S("49")});
  EXPECT_DOUBLE_EQ(div_scalar.flops, 512);
  // mul.out(self, other, out): the out tensor is the output, not an input.
  auto mul_out = eval("aten::mul", {F({2, 3}), F({2, 3}), F({2, 3})});
  EXPECT_DOUBLE_EQ(mul_out.bytes_read, 2 * 24);
  // A scalar base: pow(2, tensor).
  EXPECT_DOUBLE_EQ(eval("aten::pow", {S("2"), F({7})}).flops, 7);
}

TEST(ElementwiseFlops, TypePromotionAndComparisons) {
  auto promoted = eval("aten::mul", {T("int64", {3}), T("float16", {3})});
  EXPECT_DOUBLE_EQ(promoted.bytes_written, 3 * 2);
  auto eq = eval("aten::eq", {T("int64", {1, 141}), S("1")});
  EXPECT_DOUBLE_EQ(eq.flops, 141);
  EXPECT_DOUBLE_EQ(eq.bytes_written, 141);  // bool
  auto where = eval("aten::where", {T("bool", {2, 1}), F({1, 3}), F({})});
  EXPECT_DOUBLE_EQ(where.flops, 6);
  EXPECT_DOUBLE_EQ(where.bytes_written, 6 * 4);
  auto masked = eval("aten::masked_fill", {F({1, 4, 64, 64}), T("bool", {64, 64}), S("-inf")});
  EXPECT_DOUBLE_EQ(masked.flops, 4.0 * 64 * 64);
  EXPECT_DOUBLE_EQ(masked.bytes_read, 4.0 * 64 * 64 * 4 + 64 * 64);
}

TEST(ElementwiseFlops, UnaryMath) {
  EXPECT_DOUBLE_EQ(eval("aten::log1p", {F({64, 64})}).flops, 4096);
  EXPECT_DOUBLE_EQ(eval("aten::rsqrt", {F({10})}).bytes_written, 40);
  EXPECT_DOUBLE_EQ(eval("aten::isnan", {F({10})}).bytes_written, 10);
}

TEST(ActivationFlops, Constants) {
  auto x = F({10});
  EXPECT_DOUBLE_EQ(eval("aten::relu", {x}).flops, 10);
  EXPECT_DOUBLE_EQ(eval("aten::relu_", {x}).bytes_written, 40);
  EXPECT_DOUBLE_EQ(eval("aten::sigmoid", {x}).flops, 40);
  EXPECT_DOUBLE_EQ(eval("aten::silu", {x}).flops, 50);
  EXPECT_DOUBLE_EQ(eval("aten::hardswish", {x}).flops, 50);
  EXPECT_DOUBLE_EQ(eval("aten::hardsigmoid", {x}).flops, 40);
  EXPECT_DOUBLE_EQ(eval("aten::hardtanh_", {x, S("0."), S("6.")}).flops, 20);
  EXPECT_DOUBLE_EQ(eval("aten::gelu", {x, S("none")}).flops, 50);
  EXPECT_DOUBLE_EQ(eval("aten::gelu", {x, S("tanh")}).flops, 90);
  EXPECT_DOUBLE_EQ(eval("aten::leaky_relu", {x, S("0.01")}).flops, 20);
}

TEST(ActivationFlops, ClampCountsGivenBounds) {
  auto x = F({10});
  EXPECT_DOUBLE_EQ(eval("aten::clamp", {x, S("0."), S("6.")}).flops, 20);
  EXPECT_DOUBLE_EQ(eval("aten::clamp", {x, S("0."), S("None")}).flops, 10);
  // clamp.out(self, min, max, out), as TorchScript runs hardtanh.
  auto out = eval("aten::clamp", {F({1, 32, 112, 112}), S("0."), S("6."), F({1, 32, 112, 112})});
  EXPECT_DOUBLE_EQ(out.flops, 2.0 * 32 * 112 * 112);
  EXPECT_DOUBLE_EQ(out.bytes_read, 32.0 * 112 * 112 * 4);
  // Tensor bounds broadcast.
  auto tensor_bounds = eval("aten::clamp", {F({4, 5}), F({5}), F({4, 1})});
  EXPECT_DOUBLE_EQ(tensor_bounds.flops, 40);
}

TEST(SoftmaxFlops, SoftmaxAndLogSoftmax) {
  auto s = eval("aten::softmax", {F({2, 3, 5}), S("-1"), S("")});
  EXPECT_DOUBLE_EQ(s.flops, 150);
  EXPECT_DOUBLE_EQ(s.bytes_written, 120);
  auto ls = eval("aten::log_softmax", {F({2, 3, 5}), S("-1"), S("")});
  EXPECT_DOUBLE_EQ(ls.flops, 150 + 6);
  auto half = eval("aten::_softmax", {T("float16", {2, 3, 5}), S("-1"), S("True")});
  EXPECT_DOUBLE_EQ(half.bytes_read, 60);
  EXPECT_DOUBLE_EQ(half.bytes_written, 120);
}

}  // namespace
}  // namespace flopscope::testing
