// compare_weights: a tensor missing by name is REMOVED only when the other file does not hold its content;
// otherwise it is MOVED (exact or similar), and the tensor at the other end is not NEW.
#include <gtest/gtest.h>

#include <cstring>
#include <random>

#include "analyzer/weights/tensor_stats.h"
#include "analyzer/weights/weights.h"

namespace flopscope {
namespace {

// A report built from float32 tensors given by name and values (each tensor's bytes kept alive here).
struct Report {
  std::vector<std::vector<std::uint8_t>> storage;
  WeightsReport report;
  void add(const std::string& name, const std::vector<float>& v) {
    storage.emplace_back(v.size() * 4);
    std::memcpy(storage.back().data(), v.data(), storage.back().size());
    TensorLocation loc;
    loc.name = name;
    loc.dtype = "float32";
    loc.shape = {static_cast<std::int64_t>(v.size())};
    loc.storage = std::span<const std::uint8_t>(storage.back());
    report.tensors.push_back(measure_tensor(loc, {}));
  }
};

std::vector<float> normal(std::size_t n, unsigned seed) {
  std::mt19937 rng(seed);
  std::normal_distribution<float> d(0, 0.02f);
  std::vector<float> v(n);
  for (auto& x : v) x = d(rng);
  return v;
}

std::vector<float> fine_tuned(std::vector<float> v, unsigned seed) {
  std::mt19937 rng(seed);
  std::normal_distribution<float> d(0, 1);
  for (auto& x : v) x += 1e-3f * std::fabs(x) * d(rng);
  return v;
}

const TensorComparison* row(const std::vector<TensorComparison>& rows, const std::string& name) {
  for (const auto& r : rows) {
    if (r.name == name) return &r;
  }
  return nullptr;
}

TEST(MovedTensors, ExactCopyUnderANewNameIsMovedNotRemovedAndNew) {
  Report a, b;
  const auto w = normal(256, 1);
  a.add("blocks.0.weight", w);
  a.add("blocks.0.bias", std::vector<float>(16, 0.0f));
  a.add("head.weight", normal(256, 2));
  b.add("layers.0.weight", w);
  b.add("layers.0.bias", std::vector<float>(16, 0.0f));
  b.add("head.weight", normal(256, 2));
  auto rows = compare_weights(a.report, b.report);
  ASSERT_EQ(rows.size(), 3u);  // no NEW rows for layers.0.*: they are the other end of the MOVED rows
  const auto* moved = row(rows, "blocks.0.weight");
  ASSERT_NE(moved, nullptr);
  EXPECT_EQ(moved->change, TensorChange::kMoved);
  EXPECT_EQ(moved->b->name, "layers.0.weight");
  EXPECT_EQ(moved->relation, ContentRelation::kExact);
  EXPECT_EQ(moved->similarity, 1.0);
  EXPECT_EQ(moved->what, "B: layers.0.weight (exact copy)");
  // The zero bias says nothing by its values; it follows the weight of its module.
  const auto* bias = row(rows, "blocks.0.bias");
  ASSERT_NE(bias, nullptr);
  EXPECT_EQ(bias->change, TensorChange::kMoved);
  EXPECT_EQ(bias->b->name, "layers.0.bias");
  EXPECT_EQ(row(rows, "head.weight")->change, TensorChange::kUnchanged);
}

TEST(MovedTensors, FineTunedCopyUnderANewNameIsMovedAsSimilar) {
  Report a, b;
  const auto w = normal(1024, 3);
  a.add("experts.2.w", w);
  a.add("experts.3.w", normal(1024, 4));
  b.add("experts.2.w", normal(1024, 5));  // a retrained expert under the old name: CHANGED, not a move
  b.add("moe.1.w", fine_tuned(w, 6));
  auto rows = compare_weights(a.report, b.report);
  ASSERT_EQ(rows.size(), 3u);
  EXPECT_EQ(row(rows, "experts.2.w")->change, TensorChange::kChanged);  // joined by name first
  EXPECT_EQ(row(rows, "experts.3.w")->change, TensorChange::kRemoved);  // unrelated to moe.1.w
  // B's new tensor is A's experts.2.w fine-tuned, which B also has (changed) under the old name.
  const auto* copy = row(rows, "moe.1.w");
  ASSERT_NE(copy, nullptr);
  EXPECT_EQ(copy->change, TensorChange::kMoved);
  EXPECT_EQ(copy->a->name, "experts.2.w");
  EXPECT_EQ(copy->relation, ContentRelation::kSimilar);
  // Without the name collision, the fine-tuned copy is found.
  Report a2, b2;
  a2.add("experts.2.w", w);
  b2.add("moe.1.w", fine_tuned(w, 6));
  rows = compare_weights(a2.report, b2.report);
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(rows[0].change, TensorChange::kMoved);
  EXPECT_EQ(rows[0].relation, ContentRelation::kSimilar);
  EXPECT_GT(rows[0].similarity, 0.999);
  EXPECT_EQ(rows[0].b->name, "moe.1.w");
  EXPECT_TRUE(rows[0].what.starts_with("B: moe.1.w (similar, cosine 0.99")) << rows[0].what;
}

TEST(MovedTensors, MostSimilarPairsFirstOneToOne) {
  // Two fine-tuned copies renamed: each A tensor goes to its own copy, not both to one.
  Report a, b;
  const auto x = normal(512, 7), y = normal(512, 8);
  a.add("old.x", x);
  a.add("old.y", y);
  b.add("new.y", fine_tuned(y, 9));
  b.add("new.x", fine_tuned(x, 10));
  auto rows = compare_weights(a.report, b.report);
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(row(rows, "old.x")->b->name, "new.x");
  EXPECT_EQ(row(rows, "old.y")->b->name, "new.y");
}

TEST(MovedTensors, ContentGoneIsRemovedAndConstantsSayNothing) {
  Report a, b;
  a.add("keep.weight", normal(64, 11));
  a.add("keep.bias", std::vector<float>(8, 0.0f));
  a.add("gone.weight", normal(64, 12));
  a.add("gone.bias", std::vector<float>(8, 0.0f));  // equal to keep.bias, which B keeps: still removed
  b.add("keep.weight", normal(64, 11));
  b.add("keep.bias", std::vector<float>(8, 0.0f));
  b.add("added.weight", normal(64, 13));
  auto rows = compare_weights(a.report, b.report);
  EXPECT_EQ(row(rows, "gone.weight")->change, TensorChange::kRemoved);
  EXPECT_EQ(row(rows, "gone.bias")->change, TensorChange::kRemoved);
  EXPECT_EQ(row(rows, "gone.bias")->state_b, TensorState::kErased);
  EXPECT_EQ(row(rows, "added.weight")->change, TensorChange::kNew);
}

TEST(MovedTensors, UntiedCopyInBIsMovedFromTheTensorAKeeps) {
  // A lists the tied embedding once; B unties it into an equal lm_head: nothing new was added.
  Report a, b;
  const auto e = normal(640, 14);
  a.add("embed.weight", e);
  b.add("embed.weight", e);
  b.add("lm_head.weight", e);
  auto rows = compare_weights(a.report, b.report);
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(row(rows, "embed.weight")->change, TensorChange::kUnchanged);
  const auto* head = row(rows, "lm_head.weight");
  ASSERT_NE(head, nullptr);
  EXPECT_EQ(head->change, TensorChange::kMoved);
  EXPECT_EQ(head->a->name, "embed.weight");
  EXPECT_EQ(head->what, "A: embed.weight (exact copy)");
  // The other way round: A's lm_head is gone by name, but B keeps its content as embed.weight.
  rows = compare_weights(b.report, a.report);
  const auto* back = row(rows, "lm_head.weight");
  ASSERT_NE(back, nullptr);
  EXPECT_EQ(back->change, TensorChange::kMoved);
  EXPECT_EQ(back->b->name, "embed.weight");
  EXPECT_EQ(back->what, "B: embed.weight (exact copy; B keeps it for A's embed.weight too)");
}

}  // namespace
}  // namespace flopscope
