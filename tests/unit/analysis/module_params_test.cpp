// Parameters per module (analyzer/module_params): own and with children, bytes by dtype, tensors of a
// module with no row given to the nearest module above it.
#include "analyzer/module_params.h"

#include <gtest/gtest.h>

namespace flopscope {
namespace {

ModuleSummary module(std::string path, int depth, int parent) {
  ModuleSummary m;
  m.path = std::move(path);
  m.depth = depth;
  m.parent = parent;
  return m;
}

ParamRecord tensor(std::string name, std::string dtype, std::int64_t numel, std::int64_t bytes) {
  ParamRecord p;
  p.name = std::move(name);
  p.dtype = std::move(dtype);
  p.numel = numel;
  p.bytes = bytes;
  return p;
}

// (model) -> layers -> layers.0 -> layers.0.proj; the child listed before its parent, so the sum cannot
// lean on the order of s.modules.
RunSummary tree() {
  RunSummary s;
  s.modules = {module("", 0, -1), module("layers.0.proj", 3, 3), module("layers", 1, 0),
               module("layers.0", 2, 2)};
  s.modules[0].children = {2};
  s.modules[2].children = {3};
  s.modules[3].children = {1};
  return s;
}

TEST(ModuleParams, OwnAndWithChildrenInElementsAndBytes) {
  const RunSummary s = tree();
  const std::vector<ParamRecord> params = {
      tensor("layers.0.proj.weight", "float32", 64 * 32, 64 * 32 * 4),
      tensor("layers.0.proj.bias", "bfloat16", 64, 0),    // no byte count: 64 x 2 by its dtype
      tensor("layers.0.norm.weight", "float16", 32, 64),  // layers.0.norm has no row: layers.0 holds it
      tensor("embed.weight", "float32", 10, 40),          // no module "embed": the model holds it
  };
  const std::vector<ModuleParams> p = module_params(s, params);
  ASSERT_EQ(p.size(), 4u);
  EXPECT_EQ(p[1].own.tensors, 2);
  EXPECT_EQ(p[1].own.elements, 64 * 32 + 64);
  EXPECT_EQ(p[1].own.bytes, 64 * 32 * 4 + 64 * 2);
  EXPECT_EQ(p[1].total.elements, p[1].own.elements);
  EXPECT_EQ(p[3].own.elements, 32);
  EXPECT_EQ(p[3].total.elements, 64 * 32 + 64 + 32);
  EXPECT_EQ(p[2].own.tensors, 0);
  EXPECT_EQ(p[2].total.bytes, 64 * 32 * 4 + 64 * 2 + 64);
  EXPECT_EQ(p[0].own.elements, 10);
  EXPECT_EQ(p[0].total.tensors, 4);
  EXPECT_EQ(p[0].total.elements, 64 * 32 + 64 + 32 + 10);
  EXPECT_EQ(p[0].total.bytes, 64 * 32 * 4 + 64 * 2 + 64 + 40);
}

// A trace without weights recorded no parameter: the counts are unknown, never printed as 0.
TEST(ModuleParams, NoRecordsIsUnknownNotZero) {
  const std::vector<ModuleParams> none = module_params(tree(), {});
  EXPECT_TRUE(none.empty());
  const ParamCells cells = param_cells(none, 0);
  EXPECT_EQ(cells.total, "-");
  EXPECT_EQ(cells.own, "-");
  EXPECT_EQ(cells.bytes, "-");
  const std::vector<ModuleParams> one = module_params(tree(), {tensor("embed.weight", "float32", 10, 40)});
  EXPECT_EQ(param_cells(one, 0).total, "10");
  EXPECT_EQ(param_cells(one, 1).total, "0");  // a module of a run with weights that holds none: 0
  EXPECT_EQ(param_cells(one, 0).bytes, "40 B");
}

TEST(ModuleParams, CountTextHasThreeDigitsAndNoTrailingSpace) {
  EXPECT_EQ(param_count_text(512), "512");
  EXPECT_EQ(param_count_text(1'061'000), "1.06 M");
  EXPECT_EQ(param_count_text(0), "0");
}

}  // namespace
}  // namespace flopscope
