// The JSON text of list-valued columns: Kineto-like layout, exact round trip, clear errors.
#include "db/json_columns.h"

#include <gtest/gtest.h>

namespace flopscope {
namespace {

TEST(JsonColumns, OpArgsUseKinetoLikeColumns) {
  std::vector<OpArg> args = {{true, "float32", {1, 4096, 64}, ""},
                             {true, "int64", {}, ""},
                             {false, "int64", {}, "[1, 1]"},
                             {false, "", {}, "False"}};
  OpArgColumns c = encode_op_args(args);
  EXPECT_EQ(c.input_dims, "[[1,4096,64],[],null,null]");
  EXPECT_EQ(c.input_types, R"(["float32","int64","int64",""])");
  EXPECT_EQ(c.concrete_inputs, R"(["","","[1, 1]","False"])");
  std::vector<OpArg> back;
  ASSERT_TRUE(decode_op_args(c.input_dims, c.input_types, c.concrete_inputs, back).ok());
  EXPECT_EQ(back, args);
}

TEST(JsonColumns, NoArgs) {
  OpArgColumns c = encode_op_args({});
  EXPECT_EQ(c.input_dims, "[]");
  std::vector<OpArg> back = {OpArg{}};
  ASSERT_TRUE(decode_op_args(c.input_dims, c.input_types, c.concrete_inputs, back).ok());
  EXPECT_TRUE(back.empty());
}

TEST(JsonColumns, StringsWithQuotesAndUnicodeRoundTrip) {
  std::vector<OpArg> args = {{false, "str", {}, "a \"quoted\" \\ value\n\u00e9\u4e2d"},
                             {true, "x", {-1, 0}, "v"}};
  OpArgColumns c = encode_op_args(args);
  std::vector<OpArg> back;
  ASSERT_TRUE(decode_op_args(c.input_dims, c.input_types, c.concrete_inputs, back).ok());
  EXPECT_EQ(back, args);
}

TEST(JsonColumns, ReadsStandardJsonFromOtherWriters) {
  // Whitespace, escaped slashes and \u escapes (including a surrogate pair), as any JSON library may write.
  std::vector<OpArg> back;
  ASSERT_TRUE(
      decode_op_args(" [ [ 2 , 3 ] , null ] ", R"([ "f\u00e9" , "\ud83d\ude00" ])", R"(["a\/b", "\t"])", back)
          .ok());
  ASSERT_EQ(back.size(), 2u);
  EXPECT_EQ(back[0].shape, (std::vector<std::int64_t>{2, 3}));
  EXPECT_FALSE(back[1].is_tensor);
  EXPECT_EQ(back[0].dtype, "f\u00e9");
  EXPECT_EQ(back[1].dtype, "\U0001F600");
  EXPECT_EQ(back[0].value, "a/b");
  EXPECT_EQ(back[1].value, "\t");
}

TEST(JsonColumns, ControlCharactersAreEscaped) {
  std::vector<OpArg> args = {{false,
                              "",
                              {},
                              std::string("a\x01"
                                          "b\0c",
                                          5)}};
  OpArgColumns c = encode_op_args(args);
  EXPECT_EQ(c.concrete_inputs, R"(["a\u0001b\u0000c"])");
  std::vector<OpArg> back;
  ASSERT_TRUE(decode_op_args(c.input_dims, c.input_types, c.concrete_inputs, back).ok());
  EXPECT_EQ(back, args);
}

TEST(JsonColumns, MalformedColumnsAreCorrupt) {
  std::vector<OpArg> out;
  EXPECT_EQ(decode_op_args("[[1]", "[\"a\"]", "[\"\"]", out).code(), StatusCode::kCorrupt);
  EXPECT_EQ(decode_op_args("[[1]]", "[\"a\",\"b\"]", "[\"\"]", out).code(), StatusCode::kCorrupt);
  EXPECT_EQ(decode_op_args("[[1.5]]", "[\"a\"]", "[\"\"]", out).code(), StatusCode::kCorrupt);
  EXPECT_EQ(decode_op_args("[{}]", "[\"a\"]", "[\"\"]", out).code(), StatusCode::kCorrupt);
  EXPECT_EQ(decode_op_args("[null]", "[1]", "[\"\"]", out).code(), StatusCode::kCorrupt);
  EXPECT_EQ(decode_op_args("{}", "[]", "[]", out).code(), StatusCode::kCorrupt);
  EXPECT_EQ(decode_op_args("[]", "[]", "[] x", out).code(), StatusCode::kCorrupt);
  EXPECT_EQ(decode_op_args("[[1]]", "[\"a]", "[\"\"]", out).code(), StatusCode::kCorrupt);
  EXPECT_EQ(decode_op_args("[[1]]", "[\"\\q\"]", "[\"\"]", out).code(), StatusCode::kCorrupt);
  EXPECT_EQ(decode_op_args("[[99999999999999999999]]", "[\"a\"]", "[\"\"]", out).code(),
            StatusCode::kCorrupt);
  EXPECT_EQ(decode_op_args("", "", "", out).code(), StatusCode::kCorrupt);
}

TEST(JsonColumns, Shapes) {
  EXPECT_EQ(encode_shape(std::vector<std::int64_t>{64, 128}), "[64,128]");
  EXPECT_EQ(encode_shape({}), "[]");
  std::vector<std::int64_t> back;
  ASSERT_TRUE(decode_shape("[64, 128]", back).ok());
  EXPECT_EQ(back, (std::vector<std::int64_t>{64, 128}));
  ASSERT_TRUE(decode_shape("[]", back).ok());
  EXPECT_TRUE(back.empty());
  EXPECT_EQ(decode_shape("[1,", back).code(), StatusCode::kCorrupt);
  EXPECT_EQ(decode_shape("\"x\"", back).code(), StatusCode::kCorrupt);
  EXPECT_EQ(decode_shape("[1e3]", back).code(), StatusCode::kCorrupt);
  ASSERT_TRUE(decode_shape("[-9223372036854775807]", back).ok());
  EXPECT_EQ(back[0], -9223372036854775807);
}

}  // namespace
}  // namespace flopscope
