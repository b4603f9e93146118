// OpKeyIndex: the diff's index of op signatures by (path, name, signature) views.
#include "analyzer/diff/op_key_index.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace flopscope {
namespace {

std::size_t hash_of(const OpKey& k) {
  return OpKeyIndex::hash(k, OpKeyIndex::hash_part(k.path));
}

TEST(OpKeyIndex, FirstInsertKeepsItsRowLaterOnesFindIt) {
  OpKeyIndex index;
  const OpKey k{"layers.0", "aten::mm", "float32[2,3], float32[3,4]"};
  bool inserted = false;
  EXPECT_EQ(index.insert(k, hash_of(k), 7, &inserted), 7u);
  EXPECT_TRUE(inserted);
  // The same text in other strings is the same key.
  const std::string path = "layers.0", name = "aten::mm", sig = "float32[2,3], float32[3,4]";
  const OpKey same{path, name, sig};
  EXPECT_EQ(index.insert(same, hash_of(same), 9, &inserted), 7u);
  EXPECT_FALSE(inserted);
  EXPECT_EQ(index.find(same, hash_of(same)), 7u);
  EXPECT_EQ(index.size(), 1u);
}

TEST(OpKeyIndex, PartsAreKeptApart) {
  // The same characters split differently between the parts are different keys (and differ in hash).
  OpKeyIndex index;
  const OpKey a{"a.b", "c", ""}, b{"a", "b.c", ""}, c{"", "a.b", "c"};
  bool inserted = false;
  index.insert(a, hash_of(a), 0, &inserted);
  index.insert(b, hash_of(b), 1, &inserted);
  EXPECT_TRUE(inserted);
  EXPECT_EQ(index.find(c, hash_of(c)), OpKeyIndex::kAbsent);
  EXPECT_EQ(index.find(b, hash_of(b)), 1u);
  EXPECT_NE(hash_of(a), hash_of(b));
  EXPECT_NE(hash_of(b), hash_of(c));
}

TEST(OpKeyIndex, CollidingHashesAndGrowthKeepEveryRow) {
  // Every key with one hash: found by probing, before and after the table grows many times.
  std::vector<std::string> names;
  for (int i = 0; i < 300; ++i) names.push_back("op" + std::to_string(i));
  OpKeyIndex same_hash, spread;
  bool inserted = false;
  for (std::uint32_t i = 0; i < names.size(); ++i) {
    const OpKey k{"m", names[i], "sig"};
    EXPECT_EQ(same_hash.insert(k, 42, i, &inserted), i);
    EXPECT_TRUE(inserted);
    EXPECT_EQ(spread.insert(k, hash_of(k), i, &inserted), i);
  }
  EXPECT_EQ(same_hash.size(), names.size());
  for (std::uint32_t i = 0; i < names.size(); ++i) {
    const OpKey k{"m", names[i], "sig"};
    EXPECT_EQ(same_hash.find(k, 42), i);
    EXPECT_EQ(spread.find(k, hash_of(k)), i);
  }
  EXPECT_EQ(same_hash.find({"m", "op300", "sig"}, 42), OpKeyIndex::kAbsent);
  EXPECT_EQ(spread.find({"n", "op1", "sig"}, hash_of({"n", "op1", "sig"})), OpKeyIndex::kAbsent);
}

}  // namespace
}  // namespace flopscope
