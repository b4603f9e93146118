#include "analyzer/importers/module_scopes.h"

#include <gtest/gtest.h>

namespace flopscope {
namespace {

TEST(ModuleScopes, NamesByClassAndOrderUnderEachParent) {
  // Model_0 { Layer_0 { Linear_0, Linear_1 }, Layer_1 { Linear_2, Linear_3 }, Norm_0 }, called twice.
  std::vector<ScopeSpan> s;
  for (std::int64_t base : {0, 1000}) {
    s.push_back({0, base + 0, base + 100, "Model_0", "Model"});
    s.push_back({0, base + 1, base + 40, "Layer_0", "Layer"});
    s.push_back({0, base + 2, base + 10, "Linear_0", "Linear"});
    s.push_back({0, base + 11, base + 20, "Linear_1", "Linear"});
    s.push_back({0, base + 41, base + 80, "Layer_1", "Layer"});
    s.push_back({0, base + 42, base + 50, "Linear_2", "Linear"});
    s.push_back({0, base + 51, base + 60, "Linear_3", "Linear"});
    s.push_back({0, base + 81, base + 90, "Norm_0", "Norm"});
  }
  auto named = name_scopes(s, true);
  auto path = [&](std::size_t i) { return named.path(named.node[i]); };
  EXPECT_EQ(path(0), "");
  EXPECT_EQ(path(1), "Layer_0");
  EXPECT_EQ(path(2), "Layer_0.Linear_0");
  EXPECT_EQ(path(3), "Layer_0.Linear_1");
  EXPECT_EQ(path(5), "Layer_1.Linear_0");  // global Linear_2 is the first Linear of Layer_1
  EXPECT_EQ(path(6), "Layer_1.Linear_1");
  EXPECT_EQ(path(7), "Norm");  // the only Norm under the model
  // The second call lands on the same nodes.
  for (std::size_t i = 0; i < 8; ++i) EXPECT_EQ(named.node[i], named.node[i + 8]);
  EXPECT_EQ(named.type[static_cast<std::size_t>(named.node[0])], "Model");
  EXPECT_EQ(named.segment.size(), 8U);
}

TEST(ModuleScopes, SeveralTopScopesHangBelowTheRoot) {
  std::vector<ScopeSpan> s = {{0, 0, 10, "saxpy", "saxpy"},
                              {0, 20, 30, "MPI_Send", "MPI_Send"},
                              {0, 40, 50, "saxpy", "saxpy"},
                              {1, 0, 10, "a.b", "a.b"}};
  auto named = name_scopes(s, false);
  EXPECT_EQ(named.path(named.node[0]), "saxpy");
  EXPECT_EQ(named.node[0], named.node[2]);
  EXPECT_EQ(named.path(named.node[1]), "MPI_Send");
  EXPECT_EQ(named.path(named.node[3]), "a_b");
}

// A chain 3,000 levels deep: paths would total ~20 MB of text; the interned nodes hold one segment each.
TEST(ModuleScopes, DeepChainIsInternedAsParentAndSegment) {
  constexpr int kDepth = 3000;
  std::vector<std::string> names;
  for (int d = 0; d < kDepth; ++d) names.push_back("Block" + std::to_string(d) + "_0");
  std::vector<ScopeSpan> s;
  for (int d = 0; d < kDepth; ++d)
    s.push_back({0, d, 2 * kDepth - d, names[static_cast<std::size_t>(d)],
                 std::string_view(names[static_cast<std::size_t>(d)])
                     .substr(0, names[static_cast<std::size_t>(d)].size() - 2)});
  auto named = name_scopes(s, true);
  ASSERT_EQ(named.segment.size(), static_cast<std::size_t>(kDepth));
  std::size_t text = 0;
  for (const auto& seg : named.segment) text += seg.size();
  EXPECT_LT(text, static_cast<std::size_t>(kDepth) * 12);
  for (int d = 1; d < kDepth; ++d) EXPECT_EQ(named.parent[static_cast<std::size_t>(d)], d - 1);
  EXPECT_EQ(named.path(2), "Block1.Block2");
  EXPECT_EQ(named.path(kDepth - 1).size(), text + kDepth - 2);  // segments joined by dots, root empty
}

}  // namespace
}  // namespace flopscope
