#include <gtest/gtest.h>

#include <string>

#include "flops_test_util.h"

namespace flopscope::testing {
namespace {

TEST(AttentionFlops, SdpaCountsTwoProductsPlusSoftmaxAndScale) {
  // B*H = 8, Nq = 8, Nkv = 10, d = 16
  auto r = eval("aten::scaled_dot_product_attention",
                {F({2, 4, 8, 16}), F({2, 4, 10, 16}), F({2, 4, 10, 16}), S(""), S("0."), S("False"), S("")});
  ASSERT_TRUE(r.known);
  double scores = 8.0 * 8 * 10;
  EXPECT_DOUBLE_EQ(r.macs, scores * 32);
  EXPECT_DOUBLE_EQ(r.flops, 4 * scores * 16 + 6 * scores);
  EXPECT_DOUBLE_EQ(r.bytes_read, (8.0 * 8 * 16 + 2 * 8.0 * 10 * 16) * 4);
  EXPECT_DOUBLE_EQ(r.bytes_written, 8.0 * 8 * 16 * 4);
}

TEST(AttentionFlops, MaskAddsOnePerScoreAndCausalIsStated) {
  auto masked = eval("aten::scaled_dot_product_attention",
                     {F({1, 1, 4, 8}), F({1, 1, 4, 8}), F({1, 1, 4, 8}), F({4, 4}), S("0."), S("False")});
  EXPECT_DOUBLE_EQ(masked.flops, 4.0 * 16 * 8 + 7 * 16);
  auto causal = eval("aten::scaled_dot_product_attention",
                     {F({1, 1, 4, 8}), F({1, 1, 4, 8}), F({1, 1, 4, 8}), S(""), S("0."), S("True")});
  EXPECT_DOUBLE_EQ(causal.flops, 4.0 * 16 * 8 + 6 * 16);  // not discounted
  EXPECT_NE(std::string(causal.note).find("causal"), std::string::npos);
}

TEST(AttentionFlops, FlashKernelLayoutIsBatchSeqHeadDim) {
  auto sdpa = eval("aten::_scaled_dot_product_flash_attention",
                   {T("bfloat16", {1, 8, 141, 64}), T("bfloat16", {1, 8, 141, 64}),
                    T("bfloat16", {1, 8, 141, 64}), S("0."), S("False"), S("False"), S("0.125")});
  auto flash =
      eval("aten::_flash_attention_forward",
           {T("bfloat16", {1, 141, 8, 64}), T("bfloat16", {1, 141, 8, 64}), T("bfloat16", {1, 141, 8, 64})});
  ASSERT_TRUE(flash.known);
  EXPECT_DOUBLE_EQ(flash.macs, 8.0 * 141 * 141 * 128);
  EXPECT_DOUBLE_EQ(flash.macs, sdpa.macs);
  EXPECT_DOUBLE_EQ(flash.flops, sdpa.flops);
  EXPECT_DOUBLE_EQ(flash.bytes_written, 141.0 * 8 * 64 * 2);
}

TEST(AttentionFlops, NativeMultiHeadAttentionDecomposes) {
  // ViT-B/16 self-attention: B = 1, N = 197, E = 768, 12 heads, need_weights = False.
  auto x = F({1, 197, 768});
  auto r = eval("aten::_native_multi_head_attention",
                {x, x, x, S("768"), S("12"), F({2304, 768}), F({2304}), F({768, 768}), F({768}), S(""),
                 S("False"), S("True"), S("")});
  ASSERT_TRUE(r.known);
  double n = 197, e = 768, h = 12, d = 64;
  double proj_macs = 4 * n * e * e;
  double attn_macs = 2 * h * n * n * d;
  EXPECT_DOUBLE_EQ(r.macs, proj_macs + attn_macs);
  double flops = 2 * (proj_macs + attn_macs) + 4 * n * e /* biases */ + n * e /* q scale */ +
                 h * n * n * 5 /* softmax */;
  EXPECT_DOUBLE_EQ(r.flops, flops);
  EXPECT_DOUBLE_EQ(r.bytes_written, n * e * 4);
}

TEST(AttentionFlops, EncoderLayerDecomposes) {
  // _transformer_encoder_layer_fwd with E = 8, 2 heads, FFN 32, relu, B = 1, N = 4.
  std::vector<OpArg> args = {F({1, 4, 8}), S("8"),     S("2"),     F({24, 8}), F({24}), F({8, 8}), F({8}),
                             S("False"),   S("False"), S("1e-05"), F({8}),     F({8}),  F({8}),    F({8}),
                             F({32, 8}),   F({32}),    F({8, 32}), F({8}),     S(""),   S("")};
  auto r = eval("aten::_transformer_encoder_layer_fwd", args);
  ASSERT_TRUE(r.known);
  double n = 4, e = 8, h = 2, d = 4, f = 32;
  double macs = 4 * n * e * e + 2 * h * n * n * d + 2 * n * e * f;
  EXPECT_DOUBLE_EQ(r.macs, macs);
  double flops = 2 * macs + 4 * n * e + n * e + h * n * n * 5  // attention block
                 + n * f + n * e + n * f                       // FFN biases, relu
                 + 2 * 7 * n * e + 2 * n * e;                  // layer norms, residuals
  EXPECT_DOUBLE_EQ(r.flops, flops);
}

TEST(AttentionFlops, TransformBiasRescaleQkv) {
  auto r = eval("aten::_transform_bias_rescale_qkv", {F({1, 197, 2304}), F({2304}), S("12")});
  EXPECT_DOUBLE_EQ(r.flops, 197.0 * 2304 + 197.0 * 768);
}

}  // namespace
}  // namespace flopscope::testing
