// Content sketches as the weights reader computes them, and what they say about two tensors: the same one,
// one fine-tuned or cast from the other, or unrelated.
#include "analyzer/weights/tensor_similarity.h"

#include <gtest/gtest.h>

#include <cstring>
#include <random>

#include "analyzer/weights/tensor_stats.h"
#include "analyzer/weights/weights.h"

namespace flopscope {
namespace {

// Raw element bytes and the measured record of a tensor, through the weights reader's one pass.
struct Tensor {
  std::vector<std::uint8_t> bytes;
  ParamRecord record;
};

Tensor measured(const std::string& dtype, std::vector<std::int64_t> shape, std::vector<std::uint8_t> bytes,
                std::vector<std::int64_t> strides = {}) {
  Tensor t{std::move(bytes), {}};
  TensorLocation loc;
  loc.name = "t";
  loc.dtype = dtype;
  loc.shape = std::move(shape);
  loc.strides = std::move(strides);
  loc.storage = std::span<const std::uint8_t>(t.bytes);
  t.record = to_param_record(measure_tensor(loc, {}));
  return t;
}

std::vector<std::uint8_t> f32_bytes(const std::vector<float>& v) {
  std::vector<std::uint8_t> b(v.size() * 4);
  std::memcpy(b.data(), v.data(), b.size());
  return b;
}

Tensor f32(const std::vector<float>& v, std::vector<std::int64_t> shape) {
  return measured("float32", std::move(shape), f32_bytes(v));
}

// bfloat16 by truncating the float32 bits (what a plain cast to bfloat16 keeps, to within rounding).
Tensor bf16(const std::vector<float>& v, std::vector<std::int64_t> shape) {
  std::vector<std::uint8_t> b(v.size() * 2);
  for (std::size_t i = 0; i < v.size(); ++i) {
    std::uint32_t bits = 0;
    std::memcpy(&bits, &v[i], 4);
    const auto half = static_cast<std::uint16_t>(bits >> 16);
    std::memcpy(&b[2 * i], &half, 2);
  }
  return measured("bfloat16", std::move(shape), std::move(b));
}

std::vector<float> normal(std::size_t n, unsigned seed, float scale = 0.02f) {
  std::mt19937 rng(seed);
  std::normal_distribution<float> d(0, scale);
  std::vector<float> v(n);
  for (auto& x : v) x = d(rng);
  return v;
}

// x * (1 + rel * noise): a fine-tuning step of relative size `rel`.
std::vector<float> perturbed(std::vector<float> v, float rel, unsigned seed) {
  std::mt19937 rng(seed);
  std::normal_distribution<float> d(0, 1);
  for (auto& x : v) x += rel * std::fabs(x) * d(rng) + rel * 0.02f * d(rng);
  return v;
}

TEST(TensorSketch, ReaderSketchIsTheBucketSumOfTheElementsInRowMajorOrder) {
  // Over two reader chunks (65,536 float32 each; not a multiple of 61, so the second starts inside a row),
  // the float32 fast path and the element-by-element builder give the same buckets.
  const std::size_t n = 65536 * 2 + 77;
  auto v = normal(n, 1);
  SketchBuilder want;
  for (float x : v) want.add(x);
  auto t = f32(v, {static_cast<std::int64_t>(n)});
  ASSERT_EQ(t.record.sketch.size(), static_cast<std::size_t>(kSketchBuckets));
  for (int k = 0; k < kSketchBuckets; ++k) {
    EXPECT_NEAR(t.record.sketch[static_cast<std::size_t>(k)], want.buckets[static_cast<std::size_t>(k)], 1e-9)
        << k;
  }
  EXPECT_NEAR(t.record.sum, want.sum, 1e-9);
  // Bucket k holds elements k, k + 61, ...: check one bucket by hand.
  double b5 = 0;
  for (std::size_t i = 5; i < n; i += kSketchBuckets) b5 += v[i];
  EXPECT_NEAR(t.record.sketch[5], b5, 1e-9);
}

TEST(TensorSketch, StridedViewIsSketchedInItsRowMajorOrder) {
  // A transposed view of a 3 x 70 matrix and the same values stored transposed give one sketch.
  const auto v = normal(3 * 70, 2);
  std::vector<float> transposed(v.size());
  for (int r = 0; r < 3; ++r) {
    for (int c = 0; c < 70; ++c)
      transposed[static_cast<std::size_t>(c * 3 + r)] = v[static_cast<std::size_t>(r * 70 + c)];
  }
  auto view = measured("float32", {70, 3}, f32_bytes(v), {1, 70});
  auto stored = f32(transposed, {70, 3});
  EXPECT_EQ(view.record.sketch, stored.record.sketch);
  EXPECT_EQ(view.record.sha256, stored.record.sha256);
}

TEST(TensorSimilarity, ExactCopyIsExact) {
  const auto v = normal(64 * 32, 3);
  auto a = f32(v, {64, 32}), b = f32(v, {64, 32});
  EXPECT_EQ(content_relation(a.record, b.record), ContentRelation::kExact);
  EXPECT_NEAR(sketch_similarity(a.record, b.record).value(), 1.0, 1e-12);
  EXPECT_TRUE(identifies_content(a.record));
}

TEST(TensorSimilarity, FineTunedCopyIsSimilar) {
  const auto v = normal(64 * 32, 4);
  auto a = f32(v, {64, 32}), b = f32(perturbed(v, 1e-3f, 5), {64, 32});
  EXPECT_NE(a.record.sha256, b.record.sha256);
  EXPECT_EQ(content_relation(a.record, b.record), ContentRelation::kSimilar);
  EXPECT_GT(sketch_similarity(a.record, b.record).value(), 0.999);
}

TEST(TensorSimilarity, UnrelatedTensorsOfOneShapeAreNotSimilar) {
  for (unsigned seed = 10; seed < 30; ++seed) {
    auto a = f32(normal(64 * 32, seed), {64, 32}), b = f32(normal(64 * 32, seed + 100), {64, 32});
    EXPECT_EQ(content_relation(a.record, b.record), ContentRelation::kNone) << seed;
    EXPECT_LT(std::fabs(sketch_similarity(a.record, b.record).value()), 0.6) << seed;
  }
}

TEST(TensorSimilarity, ConstantTensorsMatchOnlyTheirValueAndIdentifyNothing) {
  auto zeros = f32(std::vector<float>(128, 0.0f), {128}), zeros2 = f32(std::vector<float>(128, 0.0f), {128});
  auto ones = f32(std::vector<float>(128, 1.0f), {128}), ones2 = f32(std::vector<float>(128, 1.0f), {128});
  auto twos = f32(std::vector<float>(128, 2.0f), {128});
  EXPECT_EQ(content_relation(ones.record, ones2.record), ContentRelation::kExact);
  EXPECT_EQ(content_relation(zeros.record, zeros2.record), ContentRelation::kExact);
  EXPECT_FALSE(sketch_similarity(ones.record, ones2.record).has_value());  // nothing left once centred
  EXPECT_EQ(content_relation(ones.record, twos.record), ContentRelation::kNone);
  EXPECT_EQ(content_relation(ones.record, zeros.record), ContentRelation::kNone);
  auto bf_ones = bf16(std::vector<float>(128, 1.0f), {128});
  EXPECT_EQ(content_relation(ones.record, bf_ones.record), ContentRelation::kSimilar);  // equal constants
  EXPECT_FALSE(identifies_content(ones.record));
  EXPECT_FALSE(identifies_content(zeros.record));
  EXPECT_FALSE(identifies_content(f32({0.5f}, {1}).record));  // a scalar
}

TEST(TensorSimilarity, DifferentShapesAreNeverRelated) {
  const auto v = normal(64 * 32, 6);
  auto a = f32(v, {64, 32}), b = f32(v, {32, 64});
  EXPECT_EQ(a.record.sha256, b.record.sha256);  // the same bytes
  EXPECT_EQ(content_relation(a.record, b.record), ContentRelation::kNone);
  auto c = f32(std::vector<float>(v.begin(), v.begin() + 1000), {1000});
  EXPECT_FALSE(sketch_similarity(a.record, c.record).has_value());
}

TEST(TensorSimilarity, Bfloat16CastOfAFloat32TensorIsSimilar) {
  const auto v = normal(64 * 32, 7);
  auto a = f32(v, {64, 32}), b = bf16(v, {64, 32});
  EXPECT_EQ(b.record.dtype, "bfloat16");
  EXPECT_EQ(content_relation(a.record, b.record), ContentRelation::kSimilar);
  EXPECT_GT(sketch_similarity(a.record, b.record).value(), 0.999);
}

TEST(TensorSimilarity, ContentIndexFindsTheCopyFirstThenTheMostSimilar) {
  const auto v = normal(64 * 32, 8);
  auto copy = f32(v, {64, 32}), tuned = f32(perturbed(v, 1e-2f, 9), {64, 32}),
       closer = f32(perturbed(v, 1e-3f, 10), {64, 32}), other = f32(normal(64 * 32, 11), {64, 32});
  auto query = f32(v, {64, 32});
  ContentIndex all({&other.record, &tuned.record, &copy.record, &closer.record});
  auto m = all.find(query.record);
  EXPECT_EQ(m.tensor, &copy.record);
  EXPECT_EQ(m.relation, ContentRelation::kExact);
  ContentIndex no_copy({&other.record, &tuned.record, &closer.record});
  m = no_copy.find(query.record);
  EXPECT_EQ(m.tensor, &closer.record);
  EXPECT_EQ(m.relation, ContentRelation::kSimilar);
  ContentIndex unrelated({&other.record});
  EXPECT_EQ(unrelated.find(query.record).relation, ContentRelation::kNone);
}

}  // namespace
}  // namespace flopscope
