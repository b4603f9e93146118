#include <gtest/gtest.h>

#include "flops_test_util.h"

namespace flopscope::testing {
namespace {

TEST(NormalizationFlops, LayerNorm) {
  auto r = eval("aten::layer_norm", {F({2, 3, 4}), S("[4]"), F({4}), F({4}), S("1e-05"), S("True")});
  ASSERT_TRUE(r.known);
  EXPECT_DOUBLE_EQ(r.flops, 7 * 24);
  EXPECT_DOUBLE_EQ(r.macs, 0);
  EXPECT_DOUBLE_EQ(r.bytes_read, (24 + 8) * 4);
  EXPECT_DOUBLE_EQ(r.bytes_written, 24 * 4);
  auto plain = eval("aten::layer_norm", {F({2, 3, 4}), S("[4]"), S(""), S(""), S("1e-05"), S("True")});
  EXPECT_DOUBLE_EQ(plain.flops, 5 * 24);
  // native_layer_norm also writes mean and rstd per row (6 rows).
  auto native = eval("aten::native_layer_norm", {F({2, 3, 4}), S("[4]"), F({4}), F({4}), S("1e-05")});
  EXPECT_DOUBLE_EQ(native.bytes_written, (24 + 2 * 6) * 4);
}

TEST(NormalizationFlops, BatchNormInferenceAndTraining) {
  std::vector<OpArg> args = {F({1, 64, 112, 112}), F({64}),  F({64}),    F({64}),  F({64}),
                             S("False"),           S("0.1"), S("1e-05"), S("True")};
  double n = 64.0 * 112 * 112;
  auto eval_mode = eval("aten::batch_norm", args);
  EXPECT_DOUBLE_EQ(eval_mode.flops, 2 * n);
  EXPECT_DOUBLE_EQ(eval_mode.bytes_read, (n + 4 * 64) * 4);
  EXPECT_DOUBLE_EQ(eval_mode.bytes_written, n * 4);
  args[5] = S("True");
  auto train = eval("aten::batch_norm", args);
  EXPECT_DOUBLE_EQ(train.flops, 5 * n);
  EXPECT_DOUBLE_EQ(train.bytes_written, (n + 2 * 64) * 4);
  auto impl = eval("aten::_batch_norm_impl_index", args);
  EXPECT_DOUBLE_EQ(impl.flops, 5 * n);
  auto legit = eval("aten::_native_batch_norm_legit_no_training",
                    {F({1, 64, 112, 112}), F({64}), F({64}), F({64}), F({64}), S("0.1"), S("1e-05")});
  EXPECT_DOUBLE_EQ(legit.flops, 2 * n);
}

TEST(NormalizationFlops, GroupAndRmsNorm) {
  auto g = eval("aten::group_norm", {F({2, 8, 4, 4}), S("4"), F({8}), F({8}), S("1e-05"), S("True")});
  EXPECT_DOUBLE_EQ(g.flops, 5 * 256);
  auto native = eval("aten::native_group_norm",
                     {F({2, 8, 4, 4}), F({8}), F({8}), S("2"), S("8"), S("16"), S("4"), S("1e-05")});
  EXPECT_DOUBLE_EQ(native.bytes_written, (256 + 2 * 2 * 4) * 4);
  auto rms = eval("aten::rms_norm", {F({3, 10}), S("[10]"), F({10}), S("1e-06")});
  EXPECT_DOUBLE_EQ(rms.flops, 4 * 30);
  EXPECT_DOUBLE_EQ(eval("aten::rms_norm", {F({3, 10}), S("[10]"), S(""), S("")}).flops, 3 * 30);
}

}  // namespace
}  // namespace flopscope::testing
