#include "db/model/text_escape.h"

#include <gtest/gtest.h>

namespace flopscope {
namespace {

TEST(JsonString, EscapesQuotesBackslashesAndControlCharactersOnly) {
  std::string out = "x:";
  append_json_string(out, std::string_view("a\"b\\c\nd\te\rf\x01g\x1f\0h", 16));
  EXPECT_EQ(out, R"(x:"a\"b\\c\nd\te\rf\u0001g\u001f\u0000h")");
  std::string utf8;
  append_json_string(utf8, "caf\u00e9 \u4e2d");  // bytes >= 0x80 pass through
  EXPECT_EQ(utf8, "\"caf\u00e9 \u4e2d\"");
  std::string empty;
  append_json_string(empty, "");
  EXPECT_EQ(empty, "\"\"");
}

}  // namespace
}  // namespace flopscope
