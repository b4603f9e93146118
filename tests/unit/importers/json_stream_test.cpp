#include "analyzer/importers/json_stream.h"

#include <gtest/gtest.h>

#include <initializer_list>
#include <string>
#include <vector>

#include "analyzer/importers/byte_source.h"
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
    Status s = stream.run(
        [&](std::string_view e, std::size_t readable) {
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

// Events whose brackets, braces and quotes (in and out of strings, escaped or not) fall at every offset of
// the 16-byte blocks the boundary scan reads, in runs longer than a block, across small and large chunks.
std::vector<std::string> shifted_events() {
  std::vector<std::string> events;
  for (int shift = 0; shift < 40; ++shift) {
    std::string pad(static_cast<std::size_t>(shift), ' ');
    std::string digits(static_cast<std::size_t>(shift), '7');
    events.push_back("{" + pad + R"("name": "k)" + digits + R"(\"[{]}\\", "args": {"Input Dims": [[1)" +
                     digits + R"(, 2], [], [[3]]], "s": ")" + pad + R"(}]"})" + pad + "}");
  }
  return events;
}

// A trace of `expected` events (joined by `separator`), streamed in pieces of each size: every event comes
// back whole, once, in order.
void expect_events_in_chunks(const std::vector<std::string>& expected, const std::string& separator,
                             std::initializer_list<std::size_t> chunks) {
  auto dir = testing::temp_dir();
  std::string text = "{\"traceEvents\": [";
  for (std::size_t i = 0; i < expected.size(); ++i) text += (i ? separator : "") + expected[i];
  text += "]}";
  testing::write_text(dir + "/s.json", text);
  for (std::size_t chunk : chunks) {
    auto source = ByteSource::open(dir + "/s.json");
    ASSERT_TRUE(source.ok());
    JsonTraceStream stream(*source, chunk);
    std::vector<std::string> events;
    Status s =
        stream.run([&](std::string_view e, std::size_t) { events.emplace_back(e); }, [](auto, auto, auto) {});
    ASSERT_TRUE(s.ok()) << s.message();
    EXPECT_EQ(events, expected) << chunk;
  }
}

TEST(JsonTraceStream, BoundariesAtEveryBlockOffset) {
  expect_events_in_chunks(shifted_events(), ",\n", {5, 17, 100, 1UL << 20});
}

// Runs of backslashes of every length up to three blocks, before quotes and brackets, at every block
// offset: an even run leaves the quote after it closing the string, an odd run escapes it.
TEST(JsonTraceStream, BackslashRunsOfEveryLengthAndOffset) {
  std::vector<std::string> expected;
  for (int run = 0; run < 48; ++run) {
    for (int shift = 0; shift < 16; shift += 5) {
      std::string slashes(static_cast<std::size_t>(run), '\\');
      std::string pad(static_cast<std::size_t>(shift), 'x');
      // Odd runs escape the quote that follows; the string then ends at the next, unescaped quote.
      std::string value = run % 2 == 0 ? pad + slashes : pad + slashes + R"("}]{[)";
      expected.push_back(R"({"name": ")" + value + R"(", "a": [{"b": "\\"}]})");
    }
  }
  expect_events_in_chunks(expected, ",", {3, 16, 33, 1UL << 20});
}

// Enough events for many 4 MiB batches: the pipelined reader reuses parsed batches and must hand over
// every event once, in order, unchanged, with simdjson's padding readable after it.
TEST(JsonTraceStream, PipelinedReuseOfBatchesKeepsEveryEvent) {
  auto dir = testing::temp_dir();
  auto shapes = shifted_events();
  std::string text = "{\"traceEvents\": [";
  std::size_t n = 0;
  for (; text.size() < (std::size_t{34} << 20); ++n) {
    text += (n ? "," : "") + shapes[n % shapes.size()];
  }
  text += "]}";
  testing::write_text(dir + "/p.json", text);
  auto source = ByteSource::open(dir + "/p.json");
  ASSERT_TRUE(source.ok());
  JsonTraceStream stream(*source);
  std::size_t seen = 0, wrong = 0;
  Status s = run_pipelined(
      stream,
      [&](std::string_view e, std::size_t readable) {
        if (e != shapes[seen % shapes.size()] || readable < e.size() + 64) ++wrong;
        ++seen;
      },
      [](auto, auto, auto) {});
  ASSERT_TRUE(s.ok()) << s.message();
  EXPECT_EQ(seen, n);
  EXPECT_EQ(wrong, 0U);
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
