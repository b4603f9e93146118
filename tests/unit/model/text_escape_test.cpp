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

TEST(BidiOverrides, AreShownVisiblyByEveryPrinter) {
  // U+202E RIGHT-TO-LEFT OVERRIDE and U+2066 LEFT-TO-RIGHT ISOLATE around a name.
  const std::string name = "layer\u202Etxt.exe\u2066x\u2069";
  EXPECT_EQ(terminal_safe(name), "layer\\u202etxt.exe\\u2066x\\u2069");
  EXPECT_EQ(markdown_escape(name), "layer\\u202etxt.exe\\u2066x\\u2069");  // \u is literal in Markdown
  EXPECT_EQ(html_escape(name), "layer\\u202etxt.exe\\u2066x\\u2069");
  EXPECT_EQ(csv_field(name), "layer\\u202etxt.exe\\u2066x\\u2069");
  // Neighbours that are not overrides pass: U+2029 and U+206A.
  EXPECT_EQ(terminal_safe("a\u2029b\u206Ac"), "a\u2029b\u206Ac");
}

TEST(CsvField, ShowsControlsAsTheTerminalDoes) {
  const std::string raw(
      "a\x1b[31mb\x07"
      "c\0d",
      11);
  EXPECT_EQ(csv_field(raw), terminal_safe(raw, false));
  EXPECT_EQ(csv_field(raw), "a\\x1b[31mb\\x07c\\x00d");
  EXPECT_EQ(csv_field("x,\"y\""), "\"x,\"\"y\"\"\"");
  EXPECT_EQ(csv_field("=SUM(A1)"), "'=SUM(A1)");
  EXPECT_EQ(csv_field("two\nlines"), "two\\x0alines");
}

TEST(PrometheusLabelValue, FormatEscapesThenVisibleControls) {
  EXPECT_EQ(prometheus_label_value("a\\b\"c\nd"), "a\\\\b\\\"c\\nd");
  // No escape exists for CR: shown as \x0d, its backslash escaped on the wire.
  EXPECT_EQ(prometheus_label_value("a\rb"), "a\\\\x0db");
  EXPECT_EQ(prometheus_label_value("\xff"), "\\\\xff");  // Prometheus refuses invalid UTF-8
  EXPECT_EQ(prometheus_label_value("caf\u00e9"), "caf\u00e9");
}

TEST(RedactPasswords, EveryUrlAndKeywordForm) {
  const char* cases[][2] = {
      {"postgresql://ci:hunter2@db:5432/fleet", "postgresql://ci:***@db:5432/fleet"},
      {"postgres://ci:hun/ter@2@db/fleet?sslmode=require", "postgres://ci:***@db/fleet?sslmode=require"},
      {"postgresql:/ci:hunter2@db/fleet", "postgresql:/ci:***@db/fleet"},  // one slash: a typo
      {"postgresq://ci:hunter2@db/fleet", "postgresq://ci:***@db/fleet"},  // misspelt scheme
      {"mysql://root:hunter2@db/x", "mysql://root:***@db/x"},
      {"ci:hunter2@db/fleet", "ci:***@db/fleet"},  // no scheme
      {"postgresql:///fleet?host=/s&password=hunter2&port=5",
       "postgresql:///fleet?host=/s&password=***&port=5"},
      {"host=db user=ci password=hunter2 dbname=fleet", "host=db user=ci password=*** dbname=fleet"},
      {"host=db PASSWORD = 'hun ter\\'2' dbname=x", "host=db PASSWORD = '***' dbname=x"},
      {"postgresql://ci@db/fleet", "postgresql://ci@db/fleet"},  // no password: unchanged
      {"run.db: not a PostgreSQL URL", "run.db: not a PostgreSQL URL"},
  };
  for (const auto& [in, want] : cases) {
    EXPECT_EQ(redact_passwords(in), want) << in;
    EXPECT_EQ(redact_passwords(in).find("hunter2"), std::string::npos) << in;
  }
  // A driver message that echoes the password outside those forms.
  EXPECT_EQ(redact_passwords("missing \"=\" after \"hunter2\" in connection info string",
                             "host=db password=hunter2"),
            "missing \"=\" after \"***\" in connection info string");
}

}  // namespace
}  // namespace flopscope
