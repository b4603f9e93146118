#include "db/model/module_path.h"

#include <gtest/gtest.h>

namespace flopscope {
namespace {

ModuleTree sonnet_like_tree() {
  std::vector<ModuleRecord> m{
      {0, kNoId, "", "SonnetMini"},
      {1, 0, "embed", "Embedding"},
      {2, 0, "layers", "ModuleList"},
      {3, 2, "layers.0", "Block"},
      {4, 3, "layers.0.attn", "AttentionWithBias"},
      {5, 4, "layers.0.attn.position_adaptive_bias", "PositionAdaptiveBias"},
      {6, 4, "layers.0.attn.q_proj", "Linear"},
      {7, 2, "layers.1", "Block"},
      {8, 7, "layers.1.attn", "AttentionWithBias"},
      {9, 0, "heads", "ModuleList"},
      {10, 9, "heads.0", "Linear"},
  };
  return ModuleTree(m);
}

TEST(ModulePath, ParsesTorchScriptHierarchy) {
  auto frames = parse_torchscript_hierarchy(
      {"TOP(SonnetMini)::forward", "0(Block)::forward", "attn(AttentionWithBias)::forward",
       "SELF(AttentionWithBias)::attend", "q_proj(Linear)::forward", "::linear"});
  ASSERT_EQ(frames.size(), 3u);
  EXPECT_EQ(frames[0].name, "0");
  EXPECT_EQ(frames[0].type, "Block");
  EXPECT_EQ(frames[2].name, "q_proj");
}

TEST(ModulePath, RecoversModuleListIndices) {
  ModuleTree t = sonnet_like_tree();
  EXPECT_EQ(t.resolve({{"0", "Block"}, {"attn", "AttentionWithBias"}, {"q_proj", "Linear"}}), 6);
  EXPECT_EQ(t.resolve({{"1", "Block"}, {"attn", "AttentionWithBias"}}), 8);
  EXPECT_EQ(t.resolve({{"embed", "Embedding"}}), 1);
  // Two containers have a child "0": the type decides.
  EXPECT_EQ(t.resolve({{"0", "Linear"}}), 10);
  // Unknown frame: stop at the deepest resolved module.
  EXPECT_EQ(t.resolve({{"0", "Block"}, {"nope", "X"}}), 3);
  EXPECT_EQ(t.resolve({}), 0);
}

TEST(ModulePath, ChainsRunFromTheRootDown) {
  ModuleTree t = sonnet_like_tree();
  EXPECT_EQ(t.chain(6), (std::vector<Id>{2, 3, 4, 6}));
  EXPECT_TRUE(t.chain(0).empty());
  EXPECT_EQ(t.parent_of(0), kNoId);
}

TEST(ModulePath, ShortTypeNames) {
  EXPECT_EQ(short_type_name("__torch__.torch.nn.modules.linear.___torch_mangle_0.Linear"), "Linear");
  EXPECT_EQ(short_type_name("Block"), "Block");
}

TEST(ModulePath, DottedPathHelpers) {
  EXPECT_EQ(path_depth(""), 0);
  EXPECT_EQ(path_depth("layers"), 1);
  EXPECT_EQ(path_depth("layers.0.attn"), 3);
  EXPECT_EQ(path_parent("layers.0.attn"), "layers.0");
  EXPECT_EQ(path_parent("layers"), "");
  EXPECT_EQ(path_leaf("layers.0.attn"), "attn");
  EXPECT_EQ(path_leaf("lm_head"), "lm_head");
  EXPECT_EQ(path_prefix("layers.0.attn.q_proj", 2), "layers.0");
  EXPECT_EQ(path_prefix("layers.0", 5), "layers.0");
  EXPECT_EQ(path_prefix("layers.0", 0), "");
}

}  // namespace
}  // namespace flopscope
