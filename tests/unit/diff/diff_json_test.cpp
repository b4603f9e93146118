// The diff's JSON report is streamed (cli/printers/json_writer.h) instead of dumped from a nlohmann DOM;
// its text must stay what nlohmann::json::dump(2, ' ', false, replace) printed: the CI contract, and the
// golden files of users who compare reports byte for byte.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "analyzer/diff/diff.h"
#include "cli/background_sink.h"
#include "cli/printers/diff_report.h"
#include "cli/printers/json_writer.h"
#include "tests/unit/diff/diff_fixtures.h"

namespace flopscope::cli {
namespace {

using nlohmann::json;
using testing::make_run;
using testing::Variant;

std::string dumped(const json& j) {
  return j.dump(2, ' ', false, json::error_handler_t::replace);
}

// Writes a DOM with JsonWriter, member by member in the DOM's (sorted) key order.
void write_dom(JsonWriter& w, const json& j) {
  switch (j.type()) {
    case json::value_t::object:
      w.begin_object();
      for (const auto& [k, v] : j.items()) {
        w.key(k);
        write_dom(w, v);
      }
      w.end_object();
      break;
    case json::value_t::array:
      w.begin_array();
      for (const auto& v : j) write_dom(w, v);
      w.end_array();
      break;
    case json::value_t::string:
      w.value(j.get_ref<const std::string&>());
      break;
    case json::value_t::number_float:
      w.value(j.get<double>());
      break;
    case json::value_t::number_integer:
      w.value(j.get<std::int64_t>());
      break;
    case json::value_t::number_unsigned:
      w.value(static_cast<std::int64_t>(j.get<std::uint64_t>()));
      break;
    case json::value_t::boolean:
      w.value(j.get<bool>());
      break;
    default:
      w.null();
      break;
  }
}

// Names a trace or a crafted model can hold: escapes, controls, non-ASCII, and bytes that are not UTF-8
// (replaced by U+FFFD the way nlohmann's `replace` handler does: per invalid byte or truncated sequence).
const std::vector<std::string> kHostile = {
    "plain.module",
    "",
    "quote\" back\\slash /solidus",
    std::string("nul\0byte", 8),
    "controls \x01\x08\x09\x0a\x0c\x0d\x1b\x1f del \x7f",
    "utf-8: \xc3\xa9 \xe2\x9c\x93 \xf0\x9f\x98\x80",
    "lone \xff byte",
    "truncated \xc3",
    "truncated at end \xe2\x82",
    "overlong \xc0\xaf and \xe0\x80\xaf",
    "surrogate \xed\xa0\x80",
    "past U+10FFFF \xf4\x90\x80\x80",
    "continuation \x80\x80 alone",
};

TEST(DiffJsonWriter, PrintsWhatNlohmannDumpPrints) {
  json doc = json::object();
  json strings = json::array();
  for (const auto& s : kHostile) strings.push_back(s);
  doc["strings"] = strings;
  json keyed = json::object();  // hostile keys too: the writer escapes keys as strings
  for (const auto& s : kHostile) keyed[s] = s.size();
  doc["keyed"] = keyed;
  const double inf = std::numeric_limits<double>::infinity();
  doc["floats"] = {
      0.0,        -0.0,       1.0,          -1.5, 0.1,     1e-4,   1e-5,
      123456.789, 1e15,       1e16,         1e17, 1.5e300, 5e-324, std::numeric_limits<double>::max(),
      2.0 / 3.0,  27525120.0, std::nan(""), inf,  -inf};
  // Whole numbers, printed without Grisu2 below 1e15: around that bound, powers of ten, negative ones.
  json whole = json::array();
  for (double v : {1e15 - 1, 1e15 - 0.5, 1e15 + 1, 999999999999999.0, 123000.0, 1e14, -1e14, -7.0,
                   -123456789.0, 4503599627370496.0, 9007199254740992.0, 5e14 + 0.5}) {
    whole.push_back(v);
  }
  for (std::int64_t v = 1; v < 1'000'000'000'000'000; v = v * 7 + 3) whole.push_back(static_cast<double>(v));
  doc["whole"] = whole;
  doc["integers"] = {std::int64_t{0}, std::int64_t{-1}, std::int64_t{42},
                     std::numeric_limits<std::int64_t>::min(), std::numeric_limits<std::int64_t>::max()};
  doc["flags"] = {true, false, nullptr};
  doc["empty_object"] = json::object();
  doc["empty_array"] = json::array();
  doc["nested"] = {
      {"rows", {{{"a", 1}, {"b", json::array()}}, {{"a", nullptr}, {"b", {1.0, {{"c", "d"}}}}}}}};

  std::string out;
  JsonWriter w(out);
  write_dom(w, doc);
  EXPECT_EQ(out, dumped(doc));
  // One byte to escape (or replace) at each position of a plain string, inside and past 8-byte words.
  for (const char* bad : {"\"", "\\", "\x01", "\x1f", "\x7f", "\xc3\xa9", "\xff", "\x20\x7e"}) {
    for (std::size_t at = 0; at <= 20; ++at) {
      const std::string s = std::string(at, 'a') + bad + std::string(20 - at, 'b');
      std::string one;
      JsonWriter single(one);
      single.value(s);
      EXPECT_EQ(one, dumped(json(s))) << at;
    }
  }
  // Each hostile string on its own, as a top-level value.
  for (const auto& s : kHostile) {
    std::string one;
    JsonWriter single(one);
    single.value(s);
    EXPECT_EQ(one, dumped(json(s))) << s;
  }
}

TEST(DiffJsonWriter, ElementsWrittenByASecondWriterJoinAsOne) {
  // {"a": [x, y, z], "b": []} written whole, and with x..z written by writers at depth 2 (two pieces).
  const json doc = {{"a", {{{"k", 1.5}}, "s", json::array({1.0, 2.0})}}, {"b", json::array()}};
  std::string whole;
  JsonWriter one(whole);
  write_dom(one, doc);
  std::string split, first, rest;
  JsonWriter w(split);
  w.begin_object();
  w.key("a");
  w.begin_array();
  JsonWriter x(first, 2, true);
  write_dom(x, doc["a"][0]);
  JsonWriter yz(rest, 2, false);
  write_dom(yz, doc["a"][1]);
  write_dom(yz, doc["a"][2]);
  split += first + rest;
  w.elements_added();
  w.end_array();
  w.key("b");
  w.begin_array();
  w.end_array();
  w.end_object();
  EXPECT_EQ(split, whole);
  EXPECT_EQ(split, dumped(doc));
}

// A diff whose names are hostile: module paths, an op name, a gate message, a warning.
RunDiff hostile_diff(std::vector<GateResult>* gates) {
  RunData a = make_run(Variant::kV1), b = make_run(Variant::kV2);
  std::size_t next = 0;
  for (RunData* run : {&a, &b}) {
    std::size_t i = 0;
    for (auto& m : run->modules) {
      // Leaf modules keep their tree (parents are ids): only the names change.
      if (!m.path.empty() && ++i % 3 == 0) m.path += kHostile[(next++) % kHostile.size()];
    }
    for (auto& op : run->ops) {
      if (op.id % 7 == 0) op.name += kHostile[op.id % kHostile.size()];
    }
  }
  RunDiff d = diff_runs(a, b);
  d.warnings.push_back(kHostile[4] + kHostile[6]);
  d.maps.push_back(kHostile[2]);
  d.info_a.source_path = kHostile[5];
  d.info_b.source_path = kHostile[7];
  gates->push_back({"max-regression " + kHostile[3], false, kHostile[9], false});
  gates->push_back({"expect-vanished", true, "", false});
  return d;
}

TEST(DiffJsonWriter, ReportIsTheSortedDumpOfItsOwnDocument) {
  std::vector<GateResult> gates;
  RunDiff d = hostile_diff(&gates);
  ASSERT_GT(d.modules.size(), 3u);
  ASSERT_GT(d.ops.size(), 3u);
  const std::string out = render_diff_json(d, gates, {});
  // A member out of sorted order, a missing comma or a different indentation would change the text: parse
  // sorts members into a std::map, dump prints them as the DOM-built report did.
  const json j = json::parse(out);
  EXPECT_EQ(out, dumped(j) + "\n");
  // Counts and sizes stay JSON integers, costs stay floats ("4.0"), as in the DOM-built report.
  EXPECT_TRUE(j["version"].is_number_integer());
  EXPECT_TRUE(j["a"]["iterations"].is_number_integer());
  EXPECT_TRUE(j["a"]["params"].is_number_integer());
  EXPECT_TRUE(j["a"]["ops"].is_number_float());
  EXPECT_TRUE(j["summary"]["common_modules"].is_number_integer());
  EXPECT_TRUE(j["summary"]["modules"]["VANISHED"].is_number_integer());
  bool side_seen = false;
  for (const auto& m : j["modules"]) {
    EXPECT_TRUE(m["depth"].is_number_integer());
    EXPECT_TRUE(m["weights_a"]["params"].is_number_integer());
    if (m["a"].is_object()) {
      side_seen = true;
      EXPECT_TRUE(m["a"]["time_samples"].is_number_integer());
      EXPECT_TRUE(m["a"]["flops"].is_number_float());
    }
  }
  EXPECT_TRUE(side_seen);
  // Hostile names arrive as nlohmann prints them (invalid bytes replaced).
  for (std::size_t i = 0; i < d.modules.size(); ++i) {
    EXPECT_EQ(j["modules"][i]["path"], json::parse(dumped(json(d.modules[i].path)))) << i;
  }
  EXPECT_EQ(j["warnings"][0], json::parse(dumped(json(d.warnings[0]))));
  // Non-finite intervals (untested rows) print as null; a row on one side only has no time change at all.
  bool null_interval = false;
  for (const auto& o : j["ops"]) {
    const bool one_sided = o["a"].is_null() || o["b"].is_null();
    EXPECT_EQ(o["time_delta"].is_null(), one_sided);
    if (!one_sided) null_interval = null_interval || o["time_delta"]["ci_low_ns"].is_null();
  }
  EXPECT_TRUE(null_interval);
}

TEST(DiffJsonWriter, PiecesJoinToTheWholeTextAndASinkErrorStops) {
  std::vector<GateResult> gates;
  RunDiff d = hostile_diff(&gates);
  // Enough rows for several 1 MB pieces.
  const std::vector<OpDiff> ops = d.ops;
  while (d.ops.size() < 8000) d.ops.insert(d.ops.end(), ops.begin(), ops.end());
  const std::string whole = render_diff_json(d, gates, {});
  ASSERT_GT(whole.size(), std::size_t{3} << 20);
  std::string joined;
  int pieces = 0;
  ASSERT_TRUE(write_diff_json(d, gates, {}, [&](std::string& piece) {
                ++pieces;
                joined += piece;
                return Status();
              }).ok());
  EXPECT_GE(pieces, 3);
  EXPECT_EQ(joined, whole);
  int calls = 0;
  Status st = write_diff_json(d, gates, {}, [&](std::string&) {
    ++calls;
    return IoError("disk full");
  });
  EXPECT_EQ(st.code(), StatusCode::kIoError);
  EXPECT_EQ(calls, 1);
}

TEST(BackgroundSink, WritesPiecesInOrderAndReportsTheFirstError) {
  std::string written;
  {
    BackgroundSink sink([&](std::string_view piece) {
      written += piece;
      return Status();
    });
    for (int i = 0; i < 100; ++i) {
      std::string piece = std::to_string(i) + ",";
      ASSERT_TRUE(sink.push(piece).ok());
      EXPECT_TRUE(piece.empty());
    }
    ASSERT_TRUE(sink.finish().ok());
  }
  std::string expected;
  for (int i = 0; i < 100; ++i) expected += std::to_string(i) + ",";
  EXPECT_EQ(written, expected);

  int writes = 0;
  BackgroundSink failing([&](std::string_view) {
    ++writes;
    return IoError("out: write failed");
  });
  Status st;
  for (int i = 0; i < 50 && st.ok(); ++i) {
    std::string piece = "x";
    st = failing.push(piece);
  }
  Status finished = failing.finish();
  EXPECT_EQ(finished.code(), StatusCode::kIoError);
  EXPECT_EQ(writes, 1);  // nothing is written after the first failure
}

}  // namespace
}  // namespace flopscope::cli

namespace flopscope::cli {
namespace {

// The output comparison reaches every form: one line under the verdicts (escaped for each), the JSON object.
TEST(DiffOutputs, EveryFormShowsTheLine) {
  std::vector<GateResult> gates;
  RunDiff d = hostile_diff(&gates);
  OutputTensor a;
  a.name = "<logits>";  // a dict key from the model: escaped where it goes
  a.dtype = "float32";
  a.shape = {2};
  a.values = {1.0, 2.0};
  a.sha256 = "a";
  fill_output_statistics(a);
  OutputTensor b = a;
  b.shape = {3};
  d.outputs = compare_outputs({{0, "in", "", {a}}}, {{0, "in", "", {b}}});
  const std::string line = "outputs: output <logits> has shape [2] vs [3]: outputs not compared";
  ASSERT_EQ(output_line(d.outputs), line);
  const json j = json::parse(render_diff_json(d, gates, {}));
  EXPECT_EQ(j["outputs"]["status"], "not_comparable");
  EXPECT_EQ(j["outputs"]["line"], line);
  EXPECT_TRUE(j["outputs"]["max_rel_change"].is_null());
  EXPECT_EQ(j["outputs"]["tensors"][0]["shape_b"], json::array({3}));
  EXPECT_NE(render_diff_table(d, gates, {}).find(line + "\n"), std::string::npos);
  EXPECT_NE(render_diff_markdown(d, gates, {}).find("output \\<logits\\> has shape"), std::string::npos);
  EXPECT_NE(
      render_diff_html(d, gates, {}, "").find("<p class=\"outputs\">outputs: output &lt;logits&gt; has"),
      std::string::npos);
  EXPECT_NE(
      render_diff_junit(d, gates).find("<property name=\"outputs\" value=\"outputs: output &lt;logits&gt;"),
      std::string::npos);
  // Neither side has outputs: nothing printed, the JSON says absent.
  d.outputs = {};
  EXPECT_EQ(render_diff_table(d, gates, {}).find("outputs:"), std::string::npos);
  EXPECT_EQ(json::parse(render_diff_json(d, gates, {}))["outputs"]["status"], "absent");
}

}  // namespace
}  // namespace flopscope::cli
