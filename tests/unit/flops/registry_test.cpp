#include <gtest/gtest.h>

#include <algorithm>

#include "flops_test_util.h"

namespace flopscope::testing {
namespace {

TEST(FlopsRegistry, UnknownOpIsNotKnown) {
  auto r = eval("myext::fused_thing", {F({2, 3})});
  EXPECT_FALSE(r.known);
  EXPECT_DOUBLE_EQ(r.flops, 0);
  EXPECT_FALSE(FlopsRegistry::builtin().has("myext::fused_thing"));
}

TEST(FlopsRegistry, ArgumentsThatDoNotFitAreUnknownWithANote) {
  auto r = eval("aten::mm", {F({2, 3}), F({4, 5})});
  EXPECT_FALSE(r.known);
  EXPECT_FALSE(r.note.empty());
  auto no_shapes = eval("aten::conv2d", {S(""), S("")});
  EXPECT_FALSE(no_shapes.known);
  EXPECT_TRUE(eval("myext::fused_thing", {}).note.empty());
}

TEST(FlopsRegistry, CustomFormulaAndNames) {
  FlopsRegistry r;
  r.add("custom::op", [](std::span<const OpArg>) {
    FlopsResult out;
    out.known = true;
    out.flops = 7;
    return out;
  });
  EXPECT_TRUE(r.has("custom::op"));
  EXPECT_DOUBLE_EQ(r.evaluate("custom::op", {}).flops, 7);
  auto names = FlopsRegistry::builtin().names();
  EXPECT_TRUE(std::is_sorted(names.begin(), names.end()));
  EXPECT_EQ(names.size(), FlopsRegistry::builtin().size());
  EXPECT_TRUE(std::binary_search(names.begin(), names.end(), "aten::linear"));
}

TEST(FlopsRegistry, MissingElementTypeMakesAnEstimate) {
  OpArg untyped = F({2, 3});
  untyped.dtype.clear();
  auto r = eval("aten::mm", {untyped, F({3, 4})});
  ASSERT_TRUE(r.known);
  EXPECT_TRUE(r.estimate);
  EXPECT_DOUBLE_EQ(r.bytes_read, (6 + 12) * 4);
}

// Every op name that LibTorch 1.13 records when running the sample models (sonnet-mini) and the
// torchvision models (resnet18/50, mobilenet_v2, alexnet, vit_b_16) as TorchScript, plus the ops of the
// Kineto fixtures in tests/data/kineto. tests/models checks the same end to end.
TEST(FlopsRegistry, CoversTheOpsOfTheSampleAndTorchvisionModels) {
  const char* ops[] = {"aten::_adaptive_avg_pool2d",
                       "aten::_batch_norm_impl_index",
                       "aten::_convolution",
                       "aten::_flash_attention_forward",
                       "aten::_has_compatible_shallow_copy_type",
                       "aten::_local_scalar_dense",
                       "aten::_native_multi_head_attention",
                       "aten::_reshape_alias",
                       "aten::_scaled_dot_product_flash_attention",
                       "aten::_slow_conv2d_forward",
                       "aten::_softmax",
                       "aten::_to_copy",
                       "aten::_transform_bias_rescale_qkv",
                       "aten::_unsafe_view",
                       "aten::abs",
                       "aten::adaptive_avg_pool2d",
                       "aten::add",
                       "aten::add_",
                       "aten::addmm",
                       "aten::all",
                       "aten::arange",
                       "aten::as_strided",
                       "aten::as_strided_",
                       "aten::batch_norm",
                       "aten::bmm",
                       "aten::cat",
                       "aten::clamp",
                       "aten::clamp_min_",
                       "aten::clone",
                       "aten::contiguous",
                       "aten::conv2d",
                       "aten::convolution",
                       "aten::copy_",
                       "aten::cudnn_convolution",
                       "aten::detach",
                       "aten::div_",
                       "aten::dropout",
                       "aten::embedding",
                       "aten::empty",
                       "aten::empty_like",
                       "aten::empty_strided",
                       "aten::eq",
                       "aten::expand",
                       "aten::fill_",
                       "aten::flatten",
                       "aten::gelu",
                       "aten::hardtanh",
                       "aten::hardtanh_",
                       "aten::index_select",
                       "aten::is_nonzero",
                       "aten::item",
                       "aten::layer_norm",
                       "aten::linear",
                       "aten::log1p",
                       "aten::masked_fill",
                       "aten::masked_fill_",
                       "aten::matmul",
                       "aten::max_pool2d",
                       "aten::max_pool2d_with_indices",
                       "aten::mean",
                       "aten::mkldnn_convolution",
                       "aten::mm",
                       "aten::mul",
                       "aten::narrow",
                       "aten::native_batch_norm",
                       "aten::native_dropout",
                       "aten::native_layer_norm",
                       "aten::ones",
                       "aten::permute",
                       "aten::rand",
                       "aten::relu_",
                       "aten::reshape",
                       "aten::resize_",
                       "aten::resolve_conj",
                       "aten::scaled_dot_product_attention",
                       "aten::select",
                       "aten::slice",
                       "aten::softmax",
                       "aten::sub",
                       "aten::sum",
                       "aten::t",
                       "aten::thnn_conv2d",
                       "aten::to",
                       "aten::transpose",
                       "aten::triu",
                       "aten::uniform_",
                       "aten::unsqueeze",
                       "aten::view",
                       "aten::zero_",
                       "aten::zeros",
                       "detach"};
  for (const char* op : ops) EXPECT_TRUE(FlopsRegistry::builtin().has(op)) << op;
}

}  // namespace
}  // namespace flopscope::testing
