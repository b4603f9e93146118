#include <gtest/gtest.h>

#include "analyzer/importers/byte_source.h"
#include "analyzer/importers/json_stream.h"
#include "import_test_util.h"

namespace flopscope {
namespace {

// Small chunks force elements, strings and escapes to straddle buffer refills.
TEST(JsonTraceStream, ElementsSurviveChunkBoundaries) {
  auto dir = testing::temp_dir();
  std::string text = R"( { "schemaVersion": 1, "deviceProperties": [{"name": "GPU \"0\""}],
    "traceEvents": [ {"name": "a\\\"}]{[", "ph": "X"}, {"name": "b", "args": {"x": [1, {"y": "}"}]}} ,{"name":"c"} ],
    "traceName": "t" } )";
  testing::write_text(dir + "/t.json", text);
  for (std::size_t chunk : {1UL, 2UL, 3UL, 7UL, 64UL, 4096UL}) {
    auto source = ByteSource::open(dir + "/t.json");
    ASSERT_TRUE(source.ok());
    JsonTraceStream stream(*source, chunk);
    std::vector<std::string> events, keys;
    Status s = stream.run([&](std::string_view e, std::size_t readable) {
                            EXPECT_GE(readable, e.size() + 64);
                            events.emplace_back(e);
                          },
                          [&](std::string_view k, std::string_view, std::size_t) { keys.emplace_back(k); });
    ASSERT_TRUE(s.ok()) << s.message();
    ASSERT_EQ(events.size(), 3U) << chunk;
    EXPECT_EQ(events[0], R"({"name": "a\\\"}]{[", "ph": "X"})");
    EXPECT_EQ(events[1], R"({"name": "b", "args": {"x": [1, {"y": "}"}]}})");
    EXPECT_EQ(events[2], R"({"name":"c"})");
    EXPECT_EQ(keys, (std::vector<std::string>{"schemaVersion", "deviceProperties", "traceName"}));
  }
}

TEST(JsonTraceStream, BareArrayAndTrailingGarbage) {
  auto dir = testing::temp_dir();
  testing::write_text(dir + "/a.json", R"([{"ph":"X"},{"ph":"M"}])");
  auto source = ByteSource::open(dir + "/a.json");
  ASSERT_TRUE(source.ok());
  JsonTraceStream stream(*source);
  int n = 0;
  ASSERT_TRUE(stream.run([&](std::string_view, std::size_t) { ++n; }, [](auto, auto, auto) {}).ok());
  EXPECT_EQ(n, 2);

  testing::write_text(dir + "/g.json", R"({"traceEvents": []} x)");
  auto g = ByteSource::open(dir + "/g.json");
  ASSERT_TRUE(g.ok());
  JsonTraceStream bad(*g);
  Status s = bad.run([](auto, auto) {}, [](auto, auto, auto) {});
  EXPECT_FALSE(s.ok());
  EXPECT_NE(s.message().find("after the end"), std::string::npos) << s.message();
}

}  // namespace
}  // namespace flopscope
