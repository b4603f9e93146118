// The `diff` and `weights` commands at the product boundary: exit codes, outputs, one-line errors.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>

#include "db/model/atomic_file.h"
#include "db/run_database.h"
#include "diff_fixtures.h"

namespace flopscope {
namespace {

namespace fs = std::filesystem;
using testing::make_run;
using testing::Variant;

struct Result {
  int code = -1;
  std::string out, err;
};

class DiffCli : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = new fs::path(fs::temp_directory_path() / ("flopscope_diff_cli_" + std::to_string(::getpid())));
    fs::remove_all(*dir_);
    fs::create_directories(*dir_);
    for (auto [name, v] :
         {std::pair{"v1", Variant::kV1}, std::pair{"v2", Variant::kV2}, std::pair{"v2z", Variant::kV2z}}) {
      auto sink = create_run_database(path(std::string(name) + ".db"), true);
      ASSERT_TRUE(sink.ok()) << sink.status().message();
      ASSERT_TRUE(write_run(**sink, make_run(v)).ok());
    }
  }
  static void TearDownTestSuite() { fs::remove_all(*dir_); }

  static std::string path(const std::string& name) { return (*dir_ / name).string(); }

  static Result run(const std::string& args) {
    std::string err = path("stderr.txt");
    std::string cmd = std::string(FLOPSCOPE_BINARY_DIR "/cli/flopscope --no-progress ") + args + " 2>" + err;
    Result r;
    FILE* p = ::popen(cmd.c_str(), "r");
    char buf[4096];
    for (std::size_t n; (n = std::fread(buf, 1, sizeof buf, p)) > 0;) r.out.append(buf, n);
    int status = ::pclose(p);
    r.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    r.err = read_file(err).value();
    return r;
  }

  static fs::path* dir_;
};
fs::path* DiffCli::dir_ = nullptr;

TEST_F(DiffCli, AcceptanceExitCodes) {
  const std::string gate = " --expect-vanished '*position_adaptive_bias*'";
  EXPECT_EQ(run("diff " + path("v1.db") + " " + path("v2.db") + gate).code, 0);
  Result same = run("diff " + path("v1.db") + " " + path("v1.db") + gate);
  EXPECT_EQ(same.code, 1);
  EXPECT_NE(same.err.find("gate failed: expect-vanished"), std::string::npos) << same.err;
  EXPECT_EQ(
      run("diff " + path("v2.db") + " " + path("v1.db") + " --forbid-active '*position_adaptive_bias*'").code,
      1);
  EXPECT_EQ(
      run("diff " + path("v1.db") + " " + path("v2.db") + " --forbid-active '*position_adaptive_bias*'").code,
      0);
}

TEST_F(DiffCli, VerdictsInTheTable) {
  Result v2 = run("diff " + path("v1.db") + " " + path("v2.db"));
  EXPECT_EQ(v2.code, 0);
  EXPECT_NE(v2.out.find("layers.0.attn.position_adaptive_bias  VANISHED: not in B (A: 2 op calls"),
            std::string::npos)
      << v2.out;
  EXPECT_NE(v2.out.find("weights ERASED"), std::string::npos);
  Result v2z = run("diff " + path("v1.db") + " " + path("v2z.db"));
  EXPECT_NE(v2z.out.find("DORMANT: weights ZEROED (1 param) but compute still runs"), std::string::npos)
      << v2z.out;
  Result self = run("diff " + path("v1.db") + " " + path("v1.db") + " --format json");
  EXPECT_EQ(self.code, 0);
  auto j = nlohmann::json::parse(self.out);
  for (const auto& m : j["modules"]) EXPECT_EQ(m["status"], "UNCHANGED") << m["path"];
}

// `flopscope diff` opens with the summary sentence: the first line of the text output is the JSON's
// summary.sentence, for v1 -> v2 (vanished) and v1 -> v2z (dormant).
TEST_F(DiffCli, SummarySentenceFirst) {
  for (auto [b, start] :
       {std::pair{"v2.db",
                  "2 x position_adaptive_bias VANISHED (weights ERASED), cost in A of the removed modules: "},
        std::pair{
            "v2z.db",
            "2 x position_adaptive_bias DORMANT (weights ZEROED), wasted in B by the dormant modules: "}}) {
    Result text = run("diff " + path("v1.db") + " " + path(b));
    Result json = run("diff " + path("v1.db") + " " + path(b) + " --format json");
    ASSERT_EQ(text.code, 0) << text.err;
    const std::string sentence = nlohmann::json::parse(json.out)["summary"]["sentence"];
    EXPECT_EQ(sentence.rfind(start, 0), 0u) << sentence;
    EXPECT_EQ(text.out.substr(0, text.out.find('\n')), sentence);
  }
}

TEST_F(DiffCli, ReportFiles) {
  fs::path svg = *dir_ / "graph.svg";
  std::ofstream(svg)
      << "<?xml version=\"1.0\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\"><g id=\"diffgraph\"/></svg>\n";
  Result r =
      run("diff " + path("v1.db") + " " + path("v2.db") + " --md " + path("r.md") + " --json " +
          path("r.json") + " --junit " + path("r.xml") + " --html " + path("r.html") + " --html-graph " +
          svg.string() + " --expect-vanished '*position_adaptive_bias*' --max-regression flops=0.5% --force");
  ASSERT_EQ(r.code, 0) << r.err;
  auto j = nlohmann::json::parse(read_file(path("r.json")).value());
  EXPECT_EQ(j["schema"], "flopscope.diff");
  EXPECT_EQ(j["version"], 3);
  EXPECT_TRUE(j["passed"].get<bool>());
  EXPECT_EQ(j["gates"].size(), 2u);
  bool found = false;
  for (const auto& m : j["modules"]) {
    if (m["path"] == "layers.1.attn.position_adaptive_bias") {
      found = true;
      EXPECT_EQ(m["verdict"], "VANISHED");
      EXPECT_EQ(m["weights_b"]["state"], "ERASED");
      EXPECT_TRUE(m["b"].is_null());
      EXPECT_DOUBLE_EQ(m["a"]["flops"].get<double>(), 2e4);
    }
  }
  EXPECT_TRUE(found);
  EXPECT_DOUBLE_EQ(j["end_to_end"]["flops"]["delta"].get<double>(), -4e4);
  std::string xml = read_file(path("r.xml")).value();
  std::size_t cases = 0;
  for (std::size_t p = 0; (p = xml.find("<testcase ", p)) != std::string::npos; ++p) ++cases;
  EXPECT_EQ(cases, 2u);
  EXPECT_EQ(xml.find("<failure"), std::string::npos);
  std::string html = read_file(path("r.html")).value();
  // The SVG is an image (data: URI), never inlined markup: browsers run no scripts in SVG images.
  EXPECT_NE(html.find("<img alt=\"diff graph\" src=\"data:image/svg+xml;base64,PD94bWwg"), std::string::npos);
  EXPECT_EQ(html.find("<g id=\"diffgraph\"/>"), std::string::npos);
  EXPECT_EQ(html.find("<script"), std::string::npos);
  // The summary and the tables come first; the graph last, folded.
  EXPECT_LT(html.find("<h2>Modules"), html.find("<details class=\"graph\">"));
  EXPECT_LT(html.find("class=\"summary"), html.find("<h2>Modules"));
  EXPECT_NE(read_file(path("r.md")).value().find("VANISHED"), std::string::npos);
  // A failed gate shows in JUnit as a failure.
  r = run("diff " + path("v1.db") + " " + path("v1.db") + " --expect-vanished '*bias*' --junit " +
          path("f.xml") + " --force");
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(read_file(path("f.xml")).value().find("<failure"), std::string::npos);
}

TEST_F(DiffCli, BadInputIsExitTwoWithOneLine) {
  for (const std::string& args :
       {"diff " + path("v1.db") + " " + path("missing.db"),
        "diff " + path("v1.db") + " " + path("v2.db") + " --max-regression speed=5%",
        "diff " + path("v1.db") + " " + path("v2.db") + " --map 'no-equals'",
        "diff " + path("v1.db") + " " + path("v2.db") + " --html-graph " + path("v1.db")}) {
    SCOPED_TRACE(args);
    Result r = run(args);
    EXPECT_EQ(r.code, 2);
    EXPECT_EQ(r.err.rfind("flopscope: error: ", 0), 0u) << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  }
  // An existing report file is kept unless --force, and nothing is half-written.
  std::ofstream(path("keep.json")) << "old";
  Result r = run("diff " + path("v1.db") + " " + path("v2.db") + " --json " + path("keep.json"));
  EXPECT_EQ(r.code, 2);
  EXPECT_EQ(read_file(path("keep.json")).value(), "old");
}

std::string le64(std::uint64_t n) {
  std::string s(8, '\0');
  for (int i = 0; i < 8; ++i) s[static_cast<std::size_t>(i)] = static_cast<char>((n >> (8 * i)) & 0xff);
  return s;
}

// Two runs of one process each: the time gate can neither pass nor fail. Exit 2, one line naming how to
// get runs of several processes; with three processes a side the gate is evaluated (and passes a self-diff).
TEST_F(DiffCli, TimeGateAcrossOneProcessEachIsExitTwo) {
  Result r = run("diff " + path("v1.db") + " " + path("v2z.db") + " --max-regression time=5%");
  EXPECT_EQ(r.code, 2) << r.err;
  EXPECT_EQ(r.err.rfind("flopscope: error: ", 0), 0u) << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  EXPECT_NE(r.err.find("not assessable across processes"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("--rounds"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("trace --repeat"), std::string::npos) << r.err;
  // Without the time gate the report shows the point estimate, labelled.
  r = run("diff " + path("v1.db") + " " + path("v2z.db") + " --format json");
  ASSERT_EQ(r.code, 0) << r.err;
  auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["end_to_end"]["time_status"], "not_assessable");
  EXPECT_EQ(j["a"]["processes"], 1);
  EXPECT_NE(j["summary"]["sentence"].get<std::string>().find("not assessable across processes"),
            std::string::npos);
  testing::FixtureOptions three;
  three.iterations = 9;
  three.processes = 3;
  auto sink = create_run_database(path("v1x3.db"), true);
  ASSERT_TRUE(sink.ok()) << sink.status().message();
  ASSERT_TRUE(write_run(**sink, make_run(Variant::kV1, three)).ok());
  r = run("diff " + path("v1x3.db") + " " + path("v1x3.db") + " --max-regression time=5% --format json");
  EXPECT_EQ(r.code, 0) << r.err;
  j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["end_to_end"]["time_status"], "unchanged");
  EXPECT_EQ(j["a"]["processes"], 3);
}

TEST_F(DiffCli, WeightsCommandReportsZeroedAndErased) {
  auto st = [&](const std::string& name, const std::string& header, std::vector<float> v) {
    std::string data(v.size() * 4, '\0');
    std::memcpy(data.data(), v.data(), data.size());
    std::ofstream(path(name), std::ios::binary) << le64(header.size()) << header << data;
    return path(name);
  };
  std::string a = st("a.safetensors",
                     R"({"attn.q.weight":{"dtype":"F32","shape":[2],"data_offsets":[0,8]},)"
                     R"("attn.bias.weight":{"dtype":"F32","shape":[2],"data_offsets":[8,16]},)"
                     R"("attn.gone.weight":{"dtype":"F32","shape":[1],"data_offsets":[16,20]}})",
                     {1, 2, 3, 4, 5});
  std::string b = st("b.safetensors",
                     R"({"attn.q.weight":{"dtype":"F32","shape":[2],"data_offsets":[0,8]},)"
                     R"("attn.bias.weight":{"dtype":"F32","shape":[2],"data_offsets":[8,16]}})",
                     {1, 2, 0, 0});
  Result r = run("weights " + a + " " + b);
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("ZEROED"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("ERASED"), std::string::npos) << r.out;
  auto j = nlohmann::json::parse(run("weights " + a + " " + b + " --format json").out);
  ASSERT_EQ(j["comparison"].size(), 3u);
  EXPECT_EQ(j["comparison"][1]["state_b"], "ZEROED");
  EXPECT_EQ(j["comparison"][2]["state_b"], "ERASED");
  EXPECT_EQ(j["comparison"][2]["change"], "REMOVED");
  // Weights from a file replace the run's parameter rows: the erased module's weights are back in B.
  std::string leftover = st(
      "leftover.safetensors",
      R"({"layers.0.attn.position_adaptive_bias.weight":{"dtype":"F32","shape":[1],"data_offsets":[0,4]}})",
      {0.5f});
  Result back = run("diff " + path("v1.db") + " " + path("v2.db") + " --weights-b " + leftover +
                    " --forbid-active '*position_adaptive_bias*'");
  EXPECT_EQ(back.code, 1) << back.out;
  EXPECT_NE(back.err.find("layers.0.attn.position_adaptive_bias.weight has non-zero weights"),
            std::string::npos)
      << back.err;
  std::ofstream(path("broken.safetensors"), std::ios::binary) << le64(99999) << "{}";
  Result bad = run("weights " + path("broken.safetensors"));
  EXPECT_EQ(bad.code, 2);
  EXPECT_NE(bad.err.find(
                "broken.safetensors: corrupt safetensors: header length 99999 runs past the end of the file"),
            std::string::npos)
      << bad.err;
  EXPECT_EQ(std::count(bad.err.begin(), bad.err.end(), '\n'), 1);
}

TEST_F(DiffCli, WeightsCommandReportsMovedTensors) {
  // float32 tensors by name, written as one safetensors file.
  using Tensors = std::vector<std::pair<std::string, std::vector<float>>>;
  auto st = [&](const std::string& name, const Tensors& tensors) {
    std::string header = "{", data;
    for (const auto& [tensor, v] : tensors) {
      const std::size_t start = data.size();
      data.append(reinterpret_cast<const char*>(v.data()), v.size() * 4);
      header += (header.size() > 1 ? "," : "") + ("\"" + tensor + "\":{\"dtype\":\"F32\",\"shape\":[") +
                std::to_string(v.size()) + "],\"data_offsets\":[" + std::to_string(start) + "," +
                std::to_string(data.size()) + "]}";
    }
    std::ofstream(path(name), std::ios::binary) << le64(header.size() + 1) << header << "}" << data;
    return path(name);
  };
  auto wave = [](float f, float rel) {  // 128 values of a fixed pattern; rel: a fine-tuning step
    std::vector<float> v(128);
    for (std::size_t i = 0; i < v.size(); ++i) {
      const auto x = static_cast<float>(i);
      v[i] = std::sin(f * x) * (1 + rel * std::cos(7.3f * x));
    }
    return v;
  };
  const std::vector<float> zeros(8, 0.0f);
  std::string a = st("moved_a.safetensors", {{"blocks.0.w", wave(1.7f, 0)},
                                             {"blocks.0.b", zeros},
                                             {"x.w", wave(0.37f, 0)},
                                             {"gone.w", wave(2.9f, 0)}});
  std::string b = st("moved_b.safetensors",
                     {{"layers.0.w", wave(1.7f, 0)}, {"layers.0.b", zeros}, {"y.w", wave(0.37f, 1e-3f)}});
  // With the module matching (the default) B's renamed modules are paired with A's by their tensors first:
  // joined rows that name B's own tensor; only gone.w has no counterpart.
  Result aligned = run("weights " + a + " " + b);
  ASSERT_EQ(aligned.code, 0) << aligned.err;
  EXPECT_NE(aligned.out.find("1 CHANGED, 1 REMOVED, 2 UNCHANGED"), std::string::npos) << aligned.out;
  EXPECT_NE(aligned.out.find("B: layers.0.w"), std::string::npos) << aligned.out;
  EXPECT_NE(aligned.out.find("B: y.w; values"), std::string::npos) << aligned.out;
  // Joined by name alone (--no-align), the content search finds where each tensor went.
  const std::string no_align = " --no-align";
  Result r = run("weights " + a + " " + b + no_align);
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("3 MOVED, 1 REMOVED"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("B: layers.0.w (exact copy)"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("B: layers.0.b (exact copy, with its module's tensors)"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("B: y.w (similar, cosine 0.99"), std::string::npos) << r.out;
  // B's renamed tensors are the other end of the MOVED rows, not NEW.
  EXPECT_EQ(r.out.find("NEW"), std::string::npos) << r.out;
  Result md = run("weights " + a + " " + b + " --format md" + no_align);
  EXPECT_NE(md.out.find("| MOVED |"), std::string::npos) << md.out;
  auto j = nlohmann::json::parse(run("weights " + a + " " + b + " --format json" + no_align).out);
  ASSERT_EQ(j["comparison"].size(), 4u);
  std::map<std::string, nlohmann::json> rows;
  for (const auto& row : j["comparison"]) rows[row["name"].get<std::string>()] = row;
  EXPECT_EQ(rows["blocks.0.w"]["change"], "MOVED");
  EXPECT_EQ(rows["blocks.0.w"]["b"]["name"], "layers.0.w");
  EXPECT_EQ(rows["blocks.0.w"]["moved"]["relation"], "exact");
  EXPECT_EQ(rows["blocks.0.w"]["moved"]["similarity"], 1.0);
  EXPECT_EQ(rows["x.w"]["moved"]["relation"], "similar");
  EXPECT_GT(rows["x.w"]["moved"]["similarity"].get<double>(), 0.999);
  EXPECT_EQ(rows["gone.w"]["change"], "REMOVED");
  EXPECT_TRUE(rows["gone.w"]["moved"].is_null());
  EXPECT_EQ(rows["gone.w"]["state_b"], "ERASED");
}

}  // namespace
}  // namespace flopscope
