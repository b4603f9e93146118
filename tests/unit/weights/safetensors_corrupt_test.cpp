// Every way a safetensors file can lie about itself ends in a one-line Corrupt error naming the file.
#include <gtest/gtest.h>

#include "analyzer/weights/safetensors.h"
#include "analyzer/weights/weights.h"
#include "weights_fixtures.h"

namespace flopscope {
namespace {

using testing::floats;
using testing::le64;
using testing::safetensors_bytes;

struct Case {
  const char* name;
  std::string bytes;
  const char* expect;  // a fragment of the message
};

Status parse(const std::string& bytes) {
  std::vector<TensorLocation> out;
  return parse_safetensors({reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size()},
                           "bad.safetensors", &out);
}

std::vector<Case> cases() {
  const std::string one = R"({"t":{"dtype":"F32","shape":[2],"data_offsets":[0,8]}})";
  return {
      {"shorter than the length field", "abc", "shorter than the 8-byte header length"},
      {"header length past end of file", le64(1000) + "{}", "runs past the end of the file"},
      {"huge header length", le64(~0ull) + "{}", "runs past the end of the file"},
      {"header not JSON", safetensors_bytes("{not json", ""), "not valid JSON"},
      {"header not an object", safetensors_bytes("[1,2]", ""), "not a JSON object"},
      {"offsets out of range", safetensors_bytes(one, floats({1})), "run past the data buffer"},
      {"overlapping offsets",
       safetensors_bytes(
           R"({"a":{"dtype":"F32","shape":[2],"data_offsets":[0,8]},"b":{"dtype":"F32","shape":[2],"data_offsets":[4,12]}})",
           floats({1, 2, 3})),
       "overlap"},
      {"dtype and shape do not match the byte range",
       safetensors_bytes(R"({"t":{"dtype":"F32","shape":[3],"data_offsets":[0,8]}})", floats({1, 2})),
       "need 3 x 4 bytes"},
      {"bf16 range for f32 shape",
       safetensors_bytes(R"({"t":{"dtype":"BF16","shape":[2],"data_offsets":[0,8]}})", floats({1, 2})),
       "need 2 x 2 bytes"},
      {"begin after end",
       safetensors_bytes(R"({"t":{"dtype":"F32","shape":[0],"data_offsets":[8,0]}})", floats({1, 2})),
       "begin 8 > end 0"},
      {"gap between tensors",
       safetensors_bytes(R"({"t":{"dtype":"F32","shape":[1],"data_offsets":[4,8]}})", floats({1, 2})),
       "gap before"},
      {"trailing bytes",
       safetensors_bytes(R"({"t":{"dtype":"F32","shape":[1],"data_offsets":[0,4]}})", floats({1, 2})),
       "cover 4 of the 8 bytes"},
      {"unknown dtype",
       safetensors_bytes(R"({"t":{"dtype":"F128","shape":[1],"data_offsets":[0,4]}})", floats({1})),
       "unknown dtype"},
      {"negative dimension",
       safetensors_bytes(R"({"t":{"dtype":"F32","shape":[-1],"data_offsets":[0,4]}})", floats({1})),
       "not a non-negative integer"},
      {"overflowing shape",
       safetensors_bytes(R"({"t":{"dtype":"F32","shape":[4294967296,4294967296,16],"data_offsets":[0,4]}})",
                         floats({1})),
       "overflows"},
      {"missing data_offsets", safetensors_bytes(R"({"t":{"dtype":"F32","shape":[1]}})", floats({1})),
       "data_offsets"},
      {"duplicate tensor name",
       safetensors_bytes(
           R"({"t":{"dtype":"F32","shape":[1],"data_offsets":[0,4]},"t":{"dtype":"F32","shape":[1],"data_offsets":[4,8]}})",
           floats({1, 2})),
       "appears twice"},
  };
}

TEST(SafetensorsCorrupt, EveryCaseIsAClearCorruptError) {
  for (const auto& c : cases()) {
    SCOPED_TRACE(c.name);
    Status st = parse(c.bytes);
    ASSERT_FALSE(st.ok());
    EXPECT_EQ(st.code(), StatusCode::kCorrupt) << st.message();
    EXPECT_EQ(st.message().rfind("bad.safetensors: ", 0), 0u) << st.message();
    EXPECT_NE(st.message().find(c.expect), std::string::npos) << st.message();
    EXPECT_EQ(st.message().find('\n'), std::string::npos);
  }
}

TEST(SafetensorsCorrupt, TruncatingAValidFileAnywhereNeverCrashes) {
  std::string good = safetensors_bytes(
      R"({"a":{"dtype":"F32","shape":[2],"data_offsets":[0,8]},"b":{"dtype":"F16","shape":[2],"data_offsets":[8,12]}})",
      floats({1, 2, 3}));
  EXPECT_TRUE(parse(good).ok());
  for (std::size_t n = 0; n < good.size(); ++n) {
    Status st = parse(good.substr(0, n));
    EXPECT_FALSE(st.ok()) << "prefix of " << n << " bytes";
  }
}

TEST(SafetensorsCorrupt, FileErrorsNameTheFile) {
  auto dir = testing::temp_dir("corrupt_file");
  auto path = testing::write_file(dir / "broken.safetensors", le64(1 << 20) + "{}");
  auto r = read_weights(path, {});
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), StatusCode::kCorrupt);
  EXPECT_NE(r.status().message().find(path), std::string::npos);
  auto missing = read_weights((dir / "absent.safetensors").string(), {});
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.status().code(), StatusCode::kNotFound);
}

}  // namespace
}  // namespace flopscope
