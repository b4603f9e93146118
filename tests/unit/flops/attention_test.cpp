#include "analyzer/flops/attention.h"

#include <gtest/gtest.h>

#include <string>

#include "flops_test_util.h"

namespace flopscope::testing {
namespace {

TEST(AttentionFlops, SdpaCountsTheTwoProducts) {
  // B*H = 8, Nq = 8, Nkv = 10, d = 16
  auto r = eval("aten::scaled_dot_product_attention",
                {F({2, 4, 8, 16}), F({2, 4, 10, 16}), F({2, 4, 10, 16}), S(""), S("0."), S("False"), S("")});
  ASSERT_TRUE(r.known);
  double scores = 8.0 * 8 * 10;
  EXPECT_DOUBLE_EQ(r.macs, scores * 32);
  EXPECT_DOUBLE_EQ(r.flops, 4 * scores * 16);
  EXPECT_DOUBLE_EQ(r.bytes_read, (8.0 * 8 * 16 + 2 * 8.0 * 10 * 16) * 4);
  EXPECT_DOUBLE_EQ(r.bytes_written, 8.0 * 8 * 16 * 4);
  // No mask was passed: the note must not talk about one.
  EXPECT_EQ(std::string(r.note).find("attn_mask"), std::string::npos);
  EXPECT_EQ(std::string(r.note).find("causal"), std::string::npos);
}

TEST(AttentionFlops, MaskTensorCountsFullScoresAndSaysSo) {
  auto masked = eval("aten::scaled_dot_product_attention",
                     {F({1, 1, 4, 8}), F({1, 1, 4, 8}), F({1, 1, 4, 8}), F({4, 4}), S("0."), S("False")});
  EXPECT_DOUBLE_EQ(masked.flops, 4.0 * 16 * 8);
  EXPECT_NE(std::string(masked.note).find("attn_mask"), std::string::npos);
}

TEST(AttentionFlops, CausalSquareIsTheExactLowerTriangle) {
  // 4*d*B*H*N(N+1)/2 with B = 2, H = 3, N = 7, d = 8.
  auto causal = eval("aten::scaled_dot_product_attention",
                     {F({2, 3, 7, 8}), F({2, 3, 7, 8}), F({2, 3, 7, 8}), S(""), S("0."), S("True")});
  EXPECT_DOUBLE_EQ(causal.flops, 4.0 * 8 * 2 * 3 * 7 * 8 / 2);
  EXPECT_NE(std::string(causal.note).find("causal"), std::string::npos);
  auto flash =
      eval("aten::_scaled_dot_product_flash_attention",
           {F({2, 3, 7, 8}), F({2, 3, 7, 8}), F({2, 3, 7, 8}), S("0."), S("True"), S("False"), S("")});
  EXPECT_DOUBLE_EQ(flash.flops, causal.flops);
}

TEST(AttentionFlops, NonSquareCausalAlignment) {
  // Nq = 4, Nkv = 6. torch SDPA: top left, row i sees i + 1 keys: 1+2+3+4 = 10 pairs.
  auto sdpa = eval("aten::scaled_dot_product_attention",
                   {F({1, 1, 4, 8}), F({1, 1, 6, 8}), F({1, 1, 6, 8}), S(""), S("0."), S("True")});
  EXPECT_DOUBLE_EQ(sdpa.macs, 10.0 * 16);
  // Flash kernel: bottom right, row i sees i + 3 keys: 3+4+5+6 = 18 pairs.
  auto flash =
      eval("aten::_flash_attention_forward", {F({1, 4, 1, 8}), F({1, 6, 1, 8}), F({1, 6, 1, 8}), S(""), S(""),
                                              S("4"), S("6"), S("0."), S("True"), S("False"), S("")});
  EXPECT_DOUBLE_EQ(flash.macs, 18.0 * 16);
  EXPECT_DOUBLE_EQ(attention_visible_pairs(4, 6, true, true, -1, -1), 18);
  EXPECT_DOUBLE_EQ(attention_visible_pairs(4, 6, true, false, -1, -1), 10);
  // More queries than keys, bottom right: the first rows see nothing.
  EXPECT_DOUBLE_EQ(attention_visible_pairs(6, 4, true, true, -1, -1), 0 + 0 + 1 + 2 + 3 + 4);
}

TEST(AttentionFlops, SlidingWindow) {
  // N = 5, causal, window_left = 1: rows see 1, 2, 2, 2, 2 keys.
  EXPECT_DOUBLE_EQ(attention_visible_pairs(5, 5, true, true, 1, -1), 9);
  auto r = eval("aten::_flash_attention_forward",
                {F({1, 5, 2, 8}), F({1, 5, 2, 8}), F({1, 5, 2, 8}), S(""), S(""), S("5"), S("5"), S("0."),
                 S("True"), S("False"), S(""), S("1"), S("0")});
  EXPECT_DOUBLE_EQ(r.macs, 2 * 9.0 * 16);
  EXPECT_NE(std::string(r.note).find("sliding window"), std::string::npos);
  // Non-causal window (left 1, right 1): 2, 3, 3, 3, 2.
  EXPECT_DOUBLE_EQ(attention_visible_pairs(5, 5, false, true, 1, 1), 13);
}

TEST(AttentionFlops, GroupedQueryHeadsCountQueryHeads) {
  // 32 query heads share 8 K/V heads: the products are per query head.
  auto r = eval("aten::scaled_dot_product_attention",
                {T("bfloat16", {1, 32, 16, 128}), T("bfloat16", {1, 8, 16, 128}),
                 T("bfloat16", {1, 8, 16, 128}), S(""), S("0."), S("False"), S(""), S("True")});
  EXPECT_DOUBLE_EQ(r.flops, 4.0 * 32 * 16 * 16 * 128);
  auto flash =
      eval("aten::_flash_attention_forward",
           {T("bfloat16", {1, 16, 32, 128}), T("bfloat16", {1, 16, 8, 128}), T("bfloat16", {1, 16, 8, 128})});
  EXPECT_DOUBLE_EQ(flash.flops, r.flops);
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

TEST(AttentionFlops, PagedVarlenPrefillFromTheSglangTrace) {
  // aiter::mha_batch_prefill in tracelens__sglang_Qwen3-8B_prefilldecode: 15 sequences (cu_seqlens [16]) of
  // 15360 / 15 = 1024 queries = max_seqlen_q, causal, paged K/V with max_seqlen_k 1024: exact.
  std::vector<OpArg> args = {T("bfloat16", {15360, 32, 128}),
                             T("bfloat16", {835874, 8, 128}),
                             T("bfloat16", {835874, 8, 128}),
                             T("int32", {16}),
                             T("int32", {16}),
                             T("int32", {15616}),
                             S("1024"),
                             S("1024"),
                             S("0."),
                             S("0.088388347648318447"),
                             S("0."),
                             S("False"),
                             S("True"),
                             S("-1"),
                             S("-1")};
  auto r = eval("aiter::mha_batch_prefill", args);
  ASSERT_TRUE(r.known);
  EXPECT_FALSE(r.estimate);
  EXPECT_DOUBLE_EQ(r.flops, 4.0 * 128 * 15 * 32 * (1024.0 * 1025 / 2));
  // Reads q and the 15 x 1024 keys and values in use, not the whole cache pool.
  EXPECT_DOUBLE_EQ(r.bytes_read, (15360.0 * 32 * 128 + 15 * 1024.0 * 8 * 256) * 2);
  // Unequal lengths: an upper bound, flagged.
  args[0] = T("bfloat16", {15000, 32, 128});
  auto bound = eval("aiter::mha_batch_prefill", args);
  EXPECT_TRUE(bound.estimate);
  EXPECT_DOUBLE_EQ(bound.flops, r.flops);
}

TEST(AttentionFlops, FlashVarlenEqualLengthsAreExact) {
  // 3 sequences of 4 queries and 6 keys each, causal bottom right: 18 pairs each.
  auto r = eval("flash_attn::_flash_attn_varlen_forward",
                {F({12, 2, 8}), F({18, 2, 8}), F({18, 2, 8}), T("int32", {4}), T("int32", {4}), S("4"),
                 S("6"), S("0."), S("0.35"), S("True"), S("-1"), S("-1")});
  ASSERT_TRUE(r.known);
  EXPECT_FALSE(r.estimate);
  EXPECT_DOUBLE_EQ(r.macs, 3 * 2 * 18.0 * 16);
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
