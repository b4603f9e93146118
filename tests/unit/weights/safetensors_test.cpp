#include "analyzer/weights/safetensors.h"

#include <gtest/gtest.h>

#include <cmath>

#include "analyzer/weights/tensor_stats.h"
#include "analyzer/weights/weights.h"
#include "db/model/sha256.h"
#include "weights_fixtures.h"

namespace flopscope {
namespace {

using testing::floats;
using testing::safetensors_bytes;
using testing::temp_dir;
using testing::write_file;

const TensorInfo* find(const WeightsReport& r, const std::string& name) {
  for (const auto& t : r.tensors) {
    if (t.name == name) return &t;
  }
  return nullptr;
}

// A file with an active tensor, an all-zero tensor and a zero-size placeholder.
std::string three_tensors() {
  std::string data = floats({3, -4, 0, 0}) + floats({0, 0, 0});
  std::string header =
      R"({"__metadata__":{"format":"pt"},"w":{"dtype":"F32","shape":[2,2],"data_offsets":[0,16]},)"
      R"("z":{"dtype":"F32","shape":[3],"data_offsets":[16,28]},"e":{"dtype":"F32","shape":[0,4],"data_offsets":[28,28]}})";
  return safetensors_bytes(header, data);
}

TEST(Safetensors, StatisticsAndStates) {
  auto dir = temp_dir("stats");
  auto path = write_file(dir / "m.safetensors", three_tensors());
  auto r = read_weights(path, {});
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_EQ(r->format, "safetensors");
  ASSERT_EQ(r->tensors.size(), 3u);
  const TensorInfo* w = find(*r, "w");
  ASSERT_NE(w, nullptr);
  EXPECT_EQ(w->numel, 4);
  EXPECT_EQ(w->bytes, 16);
  EXPECT_DOUBLE_EQ(w->l2, 5.0);
  EXPECT_DOUBLE_EQ(w->max_abs, 4.0);
  EXPECT_DOUBLE_EQ(w->nonzero_fraction, 0.5);
  EXPECT_EQ(w->state, TensorState::kActive);
  EXPECT_EQ(w->sha256, sha256_hex(floats({3, -4, 0, 0})));
  EXPECT_EQ(find(*r, "z")->state, TensorState::kZeroed);
  EXPECT_EQ(find(*r, "e")->state, TensorState::kErased);
  EXPECT_EQ(find(*r, "e")->sha256, "");
}

TEST(Safetensors, AtolMakesSmallValuesZero) {
  auto dir = temp_dir("atol");
  std::string header = R"({"t":{"dtype":"F32","shape":[2],"data_offsets":[0,8]}})";
  auto path = write_file(dir / "m.safetensors", safetensors_bytes(header, floats({1e-7f, -2e-7f})));
  auto exact = read_weights(path, {});
  ASSERT_TRUE(exact.ok());
  EXPECT_EQ(exact->tensors[0].state, TensorState::kActive);
  WeightsOptions o;
  o.atol = 1e-6;
  auto loose = read_weights(path, o);
  ASSERT_TRUE(loose.ok());
  EXPECT_EQ(loose->tensors[0].state, TensorState::kZeroed);
}

TEST(Safetensors, HalfAndBfloat16Decode) {
  EXPECT_EQ(half_to_float(0x3c00), 1.0f);
  EXPECT_EQ(half_to_float(0xc000), -2.0f);
  EXPECT_EQ(half_to_float(0x7bff), 65504.0f);
  EXPECT_EQ(half_to_float(0x0001), std::ldexp(1.0f, -24));  // smallest subnormal
  EXPECT_TRUE(std::isinf(half_to_float(0x7c00)));
  EXPECT_EQ(bfloat16_to_float(0x3f80), 1.0f);
  EXPECT_EQ(bfloat16_to_float(0xc040), -3.0f);
  auto dir = temp_dir("half");
  std::string data("\x00\x3c\x00\xc0\x80\x3f\x40\xc0", 8);  // f16 {1,-2}, bf16 {1,-3}
  std::string header =
      R"({"h":{"dtype":"F16","shape":[2],"data_offsets":[0,4]},"b":{"dtype":"BF16","shape":[2],"data_offsets":[4,8]}})";
  auto r = read_weights(write_file(dir / "m.safetensors", safetensors_bytes(header, data)), {});
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_DOUBLE_EQ(find(*r, "h")->l2, std::sqrt(5.0));
  EXPECT_DOUBLE_EQ(find(*r, "h")->max_abs, 2.0);
  EXPECT_DOUBLE_EQ(find(*r, "b")->l2, std::sqrt(10.0));
  EXPECT_EQ(find(*r, "b")->dtype, "bfloat16");
}

// The acceptance case: B zeroes one tensor and drops another.
TEST(Safetensors, CompareReportsZeroedAndErased) {
  auto dir = temp_dir("compare");
  std::string ha =
      R"({"keep":{"dtype":"F32","shape":[2],"data_offsets":[0,8]},"zero":{"dtype":"F32","shape":[2],"data_offsets":[8,16]},"gone":{"dtype":"F32","shape":[1],"data_offsets":[16,20]}})";
  std::string hb =
      R"({"keep":{"dtype":"F32","shape":[2],"data_offsets":[0,8]},"zero":{"dtype":"F32","shape":[2],"data_offsets":[8,16]}})";
  auto a =
      read_weights(write_file(dir / "a.safetensors", safetensors_bytes(ha, floats({1, 2, 3, 4, 5}))), {});
  auto b = read_weights(write_file(dir / "b.safetensors", safetensors_bytes(hb, floats({1, 2, 0, 0}))), {});
  ASSERT_TRUE(a.ok() && b.ok());
  auto rows = compare_weights(*a, *b);
  ASSERT_EQ(rows.size(), 3u);
  EXPECT_EQ(rows[0].name, "keep");
  EXPECT_EQ(rows[0].change, TensorChange::kUnchanged);
  EXPECT_EQ(rows[1].name, "zero");
  EXPECT_EQ(rows[1].change, TensorChange::kChanged);
  EXPECT_EQ(rows[1].state_b, TensorState::kZeroed);
  EXPECT_EQ(rows[2].name, "gone");
  EXPECT_EQ(rows[2].change, TensorChange::kRemoved);
  EXPECT_EQ(rows[2].state_b, TensorState::kErased);
  EXPECT_EQ(rows[2].b, nullptr);
}

TEST(Safetensors, ShardedIndexWithMissingTensor) {
  auto dir = temp_dir("sharded");
  write_file(dir / "s1.safetensors",
             safetensors_bytes(R"({"a.w":{"dtype":"F32","shape":[1],"data_offsets":[0,4]}})", floats({1})));
  write_file(dir / "s2.safetensors",
             safetensors_bytes(R"({"b.w":{"dtype":"F32","shape":[1],"data_offsets":[0,4]}})", floats({0})));
  auto index = write_file(
      dir / "model.safetensors.index.json",
      R"({"metadata":{"total_size":12},"weight_map":{"a.w":"s1.safetensors","b.w":"s2.safetensors","c.w":"s2.safetensors"}})");
  auto r = read_weights(index, {});
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_EQ(r->format, "safetensors-sharded");
  ASSERT_EQ(r->tensors.size(), 3u);
  EXPECT_EQ(find(*r, "a.w")->state, TensorState::kActive);
  EXPECT_EQ(find(*r, "b.w")->state, TensorState::kZeroed);
  ASSERT_NE(find(*r, "c.w"), nullptr);
  EXPECT_EQ(find(*r, "c.w")->state, TensorState::kErased);
}

TEST(Safetensors, ShardedIndexNamingAMissingShardFails) {
  auto dir = temp_dir("sharded_missing");
  auto index =
      write_file(dir / "model.safetensors.index.json", R"({"weight_map":{"a.w":"nowhere.safetensors"}})");
  auto r = read_weights(index, {});
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), StatusCode::kNotFound);
  EXPECT_NE(r.status().message().find("nowhere.safetensors"), std::string::npos);
}

TEST(Safetensors, ParamRecordsCarryTheStatistics) {
  auto dir = temp_dir("params");
  auto r = read_weights(write_file(dir / "m.safetensors", three_tensors()), {});
  ASSERT_TRUE(r.ok());
  auto params = to_param_records(*r);
  ASSERT_EQ(params.size(), 3u);
  EXPECT_EQ(params[0].name, "w");
  EXPECT_EQ(params[0].numel, 4);
  EXPECT_DOUBLE_EQ(params[0].l2, 5.0);
  EXPECT_EQ(params[0].sha256, r->tensors[0].sha256);
}

// A header whose length's first byte is '{' (0x7b: one size in 256) was read as a sharded index's JSON.
TEST(Safetensors, HeaderLengthStartingWithABraceIsNotAnIndex) {
  std::string header = R"({"w":{"dtype":"F32","shape":[1],"data_offsets":[0,4]}})";
  header.append(0x17b - header.size(), ' ');  // safetensors pads headers with spaces
  ASSERT_EQ(safetensors_bytes(header, "")[0], '{');
  auto dir = temp_dir("brace_length");
  auto r = read_weights(write_file(dir / "m.safetensors", safetensors_bytes(header, floats({2}))), {});
  ASSERT_TRUE(r.ok()) << r.status().message();
  ASSERT_EQ(r->tensors.size(), 1u);
  EXPECT_EQ(r->tensors[0].name, "w");
}

// A header of many tensors parses whole and in order. Its growth with the tensor count (once quadratic:
// 200,000 tensors took over two minutes) is measured by the scaling benchmark's "tensor count" series
// (tests/bench/scaling), not timed here: a unit test's time depends on the machine and its load (under the
// sanitizers this took 20 s).
TEST(Safetensors, ManyTensorsParseWholeAndInOrder) {
  constexpr int kTensors = 50000;
  std::string header = "{";
  for (int i = 0; i < kTensors; ++i) {
    header += (i ? "," : "") + std::string("\"t") + std::to_string(i) + R"(":{"dtype":"F32","shape":[1],)" +
              R"("data_offsets":[)" + std::to_string(4 * i) + "," + std::to_string(4 * i + 4) + "]}";
  }
  header += "}";
  const std::string bytes = safetensors_bytes(header, std::string(4 * kTensors, '\0'));
  std::vector<TensorLocation> tensors;
  Status st =
      parse_safetensors({reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size()}, "m", &tensors);
  ASSERT_TRUE(st.ok()) << st.message();
  ASSERT_EQ(tensors.size(), static_cast<std::size_t>(kTensors));
  EXPECT_EQ(tensors.back().name, "t" + std::to_string(kTensors - 1));
  EXPECT_EQ(tensors.back().storage.size(), 4u);
  EXPECT_EQ(tensors.back().storage.data() - tensors.front().storage.data(), 4 * (kTensors - 1));
}

}  // namespace
}  // namespace flopscope
