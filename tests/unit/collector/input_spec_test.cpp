#include "collector/torch/input_spec.h"

#include <gtest/gtest.h>

namespace flopscope {
namespace {

TEST(InputSpec, ParsesShapesDtypesAndRanges) {
  auto s = parse_input_spec("float32[1,3,224,224]");
  ASSERT_TRUE(s.ok()) << s.status().message();
  EXPECT_EQ(s->dtype, "float32");
  EXPECT_EQ(s->shape, (std::vector<std::int64_t>{1, 3, 224, 224}));
  auto t = parse_input_spec("int64[1, 4096]@0:32000");
  ASSERT_TRUE(t.ok()) << t.status().message();
  EXPECT_EQ(t->high, 32000);
  EXPECT_EQ(t->to_string(), "int64[1,4096]@0:32000");
  EXPECT_TRUE(parse_input_spec("long[2]").ok());  // PyTorch alias
}

TEST(InputSpec, RejectsMalformedSpecsWithTheSpecInTheMessage) {
  for (const char* bad : {"float32", "float32[1,", "float32[1,,2]", "float32[0]", "float32[-1]", "wat[1]",
                          "int64[4]@9:3", "float32[4]@0:1", "int64[4]junk"}) {
    auto s = parse_input_spec(bad);
    ASSERT_FALSE(s.ok()) << bad;
    EXPECT_EQ(s.status().code(), StatusCode::kInvalidArgument);
    EXPECT_NE(s.status().message().find(bad), std::string::npos) << s.status().message();
  }
}

}  // namespace
}  // namespace flopscope
