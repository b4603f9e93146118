// `flopscope-gui --dump VIEW` held against the CLI's JSON on the same files: the GUI's strings must be the
// CLI's numbers as the core words them (same modules, same verdicts, same formatted numbers). Both binaries
// run as a user runs them; the expected strings come from the JSON through the core's formatters.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "analyzer/diff/diff_cells.h"
#include "analyzer/format.h"
#include "analyzer/kernel_table.h"
#include "analyzer/module_params.h"
#include "analyzer/work_text.h"
#include "db/model/text_escape.h"
#include "tests/unit/gui/fixture_runs.h"

namespace flopscope::gui {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

struct Output {
  int rc = -1;
  std::string out;
};

// stdout of a shell command (stderr as the command redirects it, else dropped) and its exit code.
Output run(const std::string& command, bool keep_stderr = false) {
  Output o;
  std::FILE* p = ::popen((keep_stderr ? command : command + " 2>/dev/null").c_str(), "r");
  if (!p) return o;
  char buf[4096];
  std::size_t n;
  while ((n = std::fread(buf, 1, sizeof buf, p)) > 0) o.out.append(buf, n);
  const int status = ::pclose(p);
  o.rc = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return o;
}

std::string quoted(const std::string& s) {
  return "'" + s + "'";
}

json cli_json(const std::string& args) {
  Output o = run(std::string(FLOPSCOPE_CLI) + " " + args);
  if (o.rc != 0 && o.rc != 1) {
    ADD_FAILURE() << "flopscope " << args << " exited " << o.rc;
    return {};
  }
  return json::parse(o.out);
}

// A dumped table: the header and the rows, each a map from column name to cell (tab-separated, no escapes
// in these files' names).
struct Table {
  std::vector<std::string> header;
  std::vector<std::map<std::string, std::string>> rows;
};

std::vector<std::string> split(const std::string& line) {
  std::vector<std::string> cells;
  std::size_t start = 0;
  for (;;) {
    std::size_t tab = line.find('\t', start);
    cells.push_back(line.substr(start, tab == std::string::npos ? std::string::npos : tab - start));
    if (tab == std::string::npos) return cells;
    start = tab + 1;
  }
}

Table dump(const std::string& view, const std::string& files) {
  Output o = run(std::string("QT_QPA_PLATFORM=offscreen ") + FLOPSCOPE_GUI + " --dump " + view + " " + files);
  Table t;
  EXPECT_EQ(o.rc, 0) << "--dump " << view << " " << files;
  std::size_t start = 0;
  while (start < o.out.size()) {
    std::size_t end = o.out.find('\n', start);
    if (end == std::string::npos) end = o.out.size();
    std::vector<std::string> cells = split(o.out.substr(start, end - start));
    start = end + 1;
    if (t.header.empty()) {
      t.header = cells;
      continue;
    }
    EXPECT_EQ(cells.size(), t.header.size()) << "row width";
    std::map<std::string, std::string> row;
    for (std::size_t i = 0; i < cells.size() && i < t.header.size(); ++i) row[t.header[i]] = cells[i];
    t.rows.push_back(std::move(row));
  }
  return t;
}

std::string path_text(const std::string& path) {
  return path.empty() ? "(model)" : path;
}

// A module with parameters that runs no op (an expert the router never picks): a never-run candidate.
void add_unused_expert(RunData& run) {
  ModuleRecord m;
  m.id = 1 << 20;
  m.parent_id = run.modules.front().id;
  m.path = "unused_expert";
  m.type = "Linear";
  run.modules.push_back(m);
  ParamRecord p;
  p.id = 1 << 20;
  p.name = "unused_expert.weight";
  p.module_id = m.id;
  p.dtype = "float32";
  p.shape = {64, 64};
  p.numel = 64 * 64;
  p.bytes = p.numel * 4;
  p.max_abs = 0.5;
  p.l2 = 10;
  p.nonzero_fraction = 1;
  p.sha256 = std::string(64, 'e');
  run.params.push_back(p);
}

class DumpVsCli : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    // One folder per process: ctest runs each test of this suite in its own process, side by side.
    dir_ = fs::path(FLOPSCOPE_BINARY_DIR) / "tests" / ("gui_dump." + std::to_string(::getpid()));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
    using namespace testing;
    FixtureOptions cpu{Variant::kV1};
    cpu.kernels = false;  // host ops only: a CPU run
    RunData cpu_run = sonnet_run(cpu);
    add_unused_expert(cpu_run);
    write_database(cpu_run, (dir_ / "cpu.db").string());
    write_database(sonnet_run({Variant::kV1}), (dir_ / "v1.db").string());
    FixtureOptions v2{Variant::kV2};
    v2.seed = 2;
    write_database(sonnet_run(v2), (dir_ / "v2.db").string());
    write_database(sonnet_run({Variant::kV1}), (dir_ / "job.rank0.db").string());
    write_database(sonnet_run(v2), (dir_ / "job.rank1.db").string());
  }
  static void TearDownTestSuite() { fs::remove_all(dir_); }
  static std::string file(const char* name) { return quoted((dir_ / name).string()); }
  static std::string kineto(const char* name) {
    return quoted(std::string(FLOPSCOPE_SOURCE_DIR) + "/tests/data/kineto/" + name);
  }
  static fs::path dir_;
};
fs::path DumpVsCli::dir_;

// A trace whose FLOPs are a lower bound (`report` prints ">= 218 TFLOPs": ops without a formula), with
// hundreds of modules and GEMM kernels that carry their ops' FLOPs.
constexpr const char* kLowerBoundTrace = "tracelens__sglang_Qwen3-8B_prefilldecode.json.gz";

// Every module of `report --format json` is a tree row (pre-order, same paths) with the same type, calls,
// FLOPs (">=" where the JSON says flops_complete false) and inclusive P50 on the report's clock.
void expect_tree_matches_report(const Table& tree, const json& report, bool device_clock) {
  ASSERT_TRUE(report.contains("modules"));
  const json& modules = report["modules"];
  ASSERT_EQ(tree.rows.size(), modules.size());
  const std::string p50 = device_clock ? "Device incl. P50" : "Incl. P50";
  bool lower_bound_seen = false;
  for (std::size_t i = 0; i < modules.size(); ++i) {
    const json& m = modules[i];
    const auto& row = tree.rows[i];
    const std::string path = path_text(m["path"].get<std::string>());
    ASSERT_EQ(row.at("Path"), path) << "row " << i;
    EXPECT_EQ(row.at("Type"), m["type"].get<std::string>()) << path;
    EXPECT_EQ(row.at("Calls"), count_text(m["calls"].get<double>())) << path;
    const bool complete = m["flops_complete"].get<bool>();
    lower_bound_seen = lower_bound_seen || !complete;
    EXPECT_EQ(row.at("FLOPs"), lower_bound_flops_text(m["inclusive"]["flops"].get<double>(), complete))
        << path;
    const json& t = device_clock ? m["gpu_time_ns"] : m["time_ns"]["inclusive"];
    EXPECT_EQ(row.at(p50), time_text(t["p50"].get<double>())) << path;
    // Parameters with the children's, as the report counts them ("-" where the run recorded none).
    if (m["params"].is_null()) {
      EXPECT_EQ(row.at("Params"), "-") << path;
      EXPECT_EQ(row.at("Param bytes"), "-") << path;
    } else {
      const json& params = m["params"]["total"];
      EXPECT_EQ(row.at("Params"), param_count_text(params["elements"].get<std::int64_t>())) << path;
      EXPECT_EQ(row.at("Param bytes"), bytes_text(params["bytes"].get<double>())) << path;
    }
  }
  if (!report["coverage"]["flops_complete"].get<bool>()) {
    EXPECT_TRUE(lower_bound_seen);
  }
}

TEST_F(DumpVsCli, TreeOfACpuRunIsTheReport) {
  const Table tree = dump("tree", file("cpu.db"));
  expect_tree_matches_report(tree, cli_json("report " + file("cpu.db") + " --format json"), false);
}

TEST_F(DumpVsCli, TreeOfAGpuTraceKeepsTheLowerBound) {
  const json report = cli_json("report " + kineto(kLowerBoundTrace) + " --format json");
  ASSERT_FALSE(report["coverage"]["flops_complete"].get<bool>()) << "the trace should be a lower bound";
  const Table tree = dump("tree", kineto(kLowerBoundTrace));
  expect_tree_matches_report(tree, report, true);
  EXPECT_EQ(tree.rows.at(0).at("FLOPs").rfind(">= ", 0), 0u) << tree.rows.at(0).at("FLOPs");
}

// `report --kernels`: one dumped row per kernel name, in its order, with the CLI's analytic FLOPs (a GEMM
// kernel's share of its op's FLOPs, not the 0 the GUI once summed from absent counters).
// A trace with allocator events (profile_memory): the tree's Allocated column is the report's memory figures,
// each module's bytes allocated with its children's, per device ("-" where nothing was allocated).
TEST_F(DumpVsCli, AllocatedIsTheReportsMemoryPerModule) {
  const char* trace = "tracelens__h100__gaunernst_bert-small-uncased__1016001.json.gz";
  const json report = cli_json("report " + kineto(trace) + " --format json");
  const Table tree = dump("tree", kineto(trace));
  expect_tree_matches_report(tree, report, true);
  const json& memory = report["memory"];
  ASSERT_TRUE(memory.is_object());
  const std::size_t devices = memory["devices"].size();
  ASSERT_EQ(devices, 2U);                       // cuda:0 and the CPU: each cell names its device
  std::map<std::string, std::string> expected;  // path -> cell, devices in the report's order
  for (const json& d : memory["devices"]) {
    for (const json& m : memory["modules"]) {
      const auto bytes = m["total"]["allocated_bytes"].get<std::int64_t>();
      if (m["device"] != d["device"] || bytes == 0) continue;
      std::string& cell = expected[path_text(m["path"].get<std::string>())];
      cell += (cell.empty() ? "" : ", ") + bytes_text(static_cast<double>(bytes)) + " " +
              d["device"].get<std::string>();
    }
  }
  ASSERT_FALSE(expected.empty());
  std::size_t with_bytes = 0;
  for (const auto& row : tree.rows) {
    const auto it = expected.find(row.at("Path"));
    EXPECT_EQ(row.at("Allocated"), it == expected.end() ? "-" : it->second) << row.at("Path");
    with_bytes += it != expected.end();
  }
  EXPECT_EQ(with_bytes, expected.size());
}

TEST_F(DumpVsCli, NoAllocatedColumnWithoutMemoryEvents) {
  const Table tree = dump("tree", file("cpu.db"));
  EXPECT_EQ(std::count(tree.header.begin(), tree.header.end(), "Allocated"), 0);
}

TEST_F(DumpVsCli, KernelsAreTheReportsKernelTable) {
  const json report = cli_json("report " + kineto(kLowerBoundTrace) + " --kernels --format json");
  const json& kernels = report["kernels"];
  const Table table = dump("kernels", kineto(kLowerBoundTrace));
  ASSERT_EQ(table.rows.size(), kernels.size());
  ASSERT_FALSE(kernels.empty());
  bool some_flops = false;
  for (std::size_t i = 0; i < kernels.size(); ++i) {
    const json& k = kernels[i];
    const auto& row = table.rows[i];
    KernelRow r;  // the JSON's fields the core's wording reads
    r.category = k["category"].get<std::string>();
    r.count = k["count"].get<std::int64_t>();
    r.unknown_count = k["unknown_count"].get<std::int64_t>();
    const std::string name = k["name"].get<std::string>();
    EXPECT_EQ(row.at("Kernel"), name);
    EXPECT_EQ(row.at("Kind"), r.category) << name;
    EXPECT_EQ(row.at("Count"), std::to_string(r.count)) << name;
    EXPECT_EQ(row.at("Device time"), time_text(k["device_time_ns"].get<double>())) << name;
    EXPECT_EQ(row.at("FLOPs"), kernel_work_text(r, k["flops"].get<double>())) << name;
    EXPECT_EQ(row.at("Bytes"), kernel_work_text(r, k["bytes"].get<double>())) << name;
    EXPECT_EQ(row.at("Module"), path_text(k["module"].get<std::string>())) << name;
    some_flops = some_flops || k["flops"].get<double>() > 0;
  }
  EXPECT_TRUE(some_flops) << "a trace whose kernels carry their ops' FLOPs";
}

// `--dump ops` lists the core's op groups (module + name + signature) that `report --format json` prints as
// op_groups: every group, module by module in tree order, each cell the JSON's value in the core's words.
void expect_ops_match_report(const Table& ops, const json& report, bool has_kernels) {
  std::map<std::string, std::vector<const json*>> by_module;
  for (const json& g : report["op_groups"]) by_module[g["module"].get<std::string>()].push_back(&g);
  std::size_t row = 0;
  for (const json& m : report["modules"]) {
    const std::string path = m["path"].get<std::string>();
    for (const json* g : by_module[path]) {
      ASSERT_LT(row, ops.rows.size()) << "missing rows from " << path;
      const auto& r = ops.rows[row++];
      const std::string name = (*g)["name"].get<std::string>();
      EXPECT_EQ(r.at("Path"), path_text(path)) << name;
      EXPECT_EQ(r.at("Op"), name) << path;
      EXPECT_EQ(r.at("Signature"), (*g)["signature"].get<std::string>()) << path << " " << name;
      EXPECT_EQ(r.at("Calls/iter"), count_text((*g)["calls"].get<double>())) << path << " " << name;
      const bool known = (*g)["flops_source"].get<std::string>() != to_string(FlopsSource::kNone);
      EXPECT_EQ(r.at("FLOPs/call"), known ? flops_text((*g)["flops"].get<double>()) : "unknown")
          << path << " " << name;
      EXPECT_EQ(r.at("Time/call"), time_text((*g)["time_ns"].get<double>())) << path << " " << name;
      EXPECT_EQ(r.at("Device time/call"),
                has_kernels ? time_text((*g)["device_time_ns"].get<double>()) : std::string("-"))
          << path << " " << name;
    }
  }
  EXPECT_EQ(row, ops.rows.size());
  EXPECT_EQ(ops.rows.size(), report["op_groups"].size()) << "a group whose module is no tree row";
}

TEST_F(DumpVsCli, OpsOfACpuRunAreTheReportsOpGroups) {
  const json report = cli_json("report " + file("cpu.db") + " --format json");
  const Table ops = dump("ops", file("cpu.db"));
  ASSERT_GT(ops.rows.size(), 10u);
  expect_ops_match_report(ops, report, false);
}

TEST_F(DumpVsCli, OpsOfAGpuTraceAreTheReportsOpGroups) {
  const json report = cli_json("report " + kineto(kLowerBoundTrace) + " --format json");
  const Table ops = dump("ops", kineto(kLowerBoundTrace));
  ASSERT_GT(ops.rows.size(), 10u);
  expect_ops_match_report(ops, report, true);
  bool unknown = false;
  for (const auto& r : ops.rows) unknown = unknown || r.at("FLOPs/call") == "unknown";
  EXPECT_TRUE(unknown) << "a lower-bound trace has ops without a formula";
}

TimeStatus time_status_named(const std::string& s) {
  for (TimeStatus t : {TimeStatus::kUntested, TimeStatus::kUnchanged, TimeStatus::kFaster,
                       TimeStatus::kSlower, TimeStatus::kNotAssessable, TimeStatus::kSingleSample})
    if (s == to_string(t)) return t;
  ADD_FAILURE() << "unknown time status " << s;
  return TimeStatus::kUntested;
}

SideCost side_of(const json& j) {
  SideCost s;
  if (j.is_null()) return s;
  s.present = true;
  s.flops = j["flops"].get<double>();
  s.flops_known = j["flops_known"].get<bool>();
  s.time.p50 = j["time_p50_ns"].get<double>();
  s.time.samples = j["time_samples"].get<int>();
  return s;
}

// The diff tab lists the modules the engine gave a verdict other than UNCHANGED, each with the CLI's verdict,
// time change worded by its TimeStatus (blank for a vanished module: nothing to compare), FLOPs and text.
TEST_F(DumpVsCli, DiffIsTheDiffJson) {
  const json diff = cli_json("diff " + file("v1.db") + " " + file("v2.db") + " --format json");
  const Table table = dump("diff", file("v1.db") + " " + file("v2.db"));
  std::map<std::string, const json*> changed;
  for (const json& m : diff["modules"])
    if (m["verdict"].get<std::string>() != "UNCHANGED") changed[path_text(m["path"].get<std::string>())] = &m;
  ASSERT_FALSE(changed.empty());
  ASSERT_EQ(table.rows.size(), changed.size());
  bool vanished_seen = false;
  for (const auto& row : table.rows) {
    const std::string path = row.at("Module");
    ASSERT_TRUE(changed.count(path)) << path << " is not a changed module of the CLI's diff";
    const json& m = *changed[path];
    EXPECT_EQ(row.at("Status"), m["verdict"].get<std::string>()) << path;
    EXPECT_EQ(row.at("Verdict"), m["verdict_text"].get<std::string>()) << path;
    const SideCost a = side_of(m["a"]), b = side_of(m["b"]);
    MedianDifference t;
    // A row present on one side has no time change (null), as the views leave the cell blank.
    EXPECT_EQ(m["time_delta"].is_null(), !(a.present && b.present)) << path;
    if (!m["time_delta"].is_null()) t.diff = m["time_delta"]["diff_ns"].get<double>();
    const std::string clock = diff["time_basis"].get<std::string>() == "gpu" ? "Device" : "Host";
    EXPECT_EQ(row.at(clock + " time A P50"), side_time_text(a)) << path;
    EXPECT_EQ(row.at(clock + " time B P50"), side_time_text(b)) << path;
    EXPECT_EQ(
        row.at(clock + " \u0394 time"),
        time_delta_text(t, time_status_named(m["time_status"].get<std::string>()), a.present && b.present))
        << path;
    EXPECT_EQ(row.at("FLOPs A"), a.present ? flops_text(a.flops) : "-") << path;
    EXPECT_EQ(row.at("FLOPs B"), b.present ? flops_text(b.flops) : "-") << path;
    if (m["verdict"].get<std::string>() == "VANISHED") {
      vanished_seen = true;
      EXPECT_EQ(row.at(clock + " \u0394 time"), "") << path << ": a vanished module has no time change";
    }
  }
  EXPECT_TRUE(vanished_seen);
}

// The ranks tab's matrix (modules to depth 2, one column per rank) is the rank report's per-rank P50.
// The ranks tab's matrix (modules to depth 2, one column per rank) against the rank report's per-rank P50.
void expect_ranks_match_report(const std::string& files, std::size_t min_rows) {
  const json report = cli_json("report " + files + " --format json");
  const Table table = dump("ranks", files);
  ASSERT_EQ(table.header.size(), 1 + report["ranks"].size());
  for (std::size_t r = 0; r < report["ranks"].size(); ++r)
    EXPECT_EQ(table.header[r + 1], "rank " + std::to_string(report["ranks"][r]["rank"].get<int>()));
  std::map<std::string, const json*> by_path;
  for (const json& m : report["modules"]) by_path[path_text(m["path"].get<std::string>())] = &m;
  ASSERT_GE(table.rows.size(), min_rows);
  for (const auto& row : table.rows) {
    const std::string path = row.at("Module");
    ASSERT_TRUE(by_path.count(path)) << path;
    const json& times = (*by_path[path])["time_p50_ns"];
    for (std::size_t r = 0; r < times.size(); ++r)
      EXPECT_EQ(row.at(table.header[r + 1]),
                times[r].is_null() ? "absent" : time_text(times[r].get<double>()))
          << path;
  }
}

TEST_F(DumpVsCli, RanksAreTheRankReport) {
  expect_ranks_match_report(kineto("hta__trace_filter__sampled_rank-0.json.gz") + " " +
                                kineto("hta__trace_filter__sampled_rank-1.json.gz"),
                            1);
  // Two ranks with a module tree (the fixtures), every module to depth 2.
  expect_ranks_match_report(file("job.rank0.db") + " " + file("job.rank1.db"), 7);
}

// Candidates: the tree's "Behaves as" rows are the modules `report --candidates` lists.
TEST_F(DumpVsCli, CandidatesAreTheReportsCandidates) {
  const json report = cli_json("report " + file("cpu.db") + " --candidates --format json");
  const Table table = dump("candidates", file("cpu.db"));
  ASSERT_EQ(table.header, (std::vector<std::string>{"Path", "Behaves as"}));
  std::vector<std::string> expected, dumped;
  const json& c = report.contains("candidates") ? report["candidates"] : report;
  for (const char* list : {"modules", "discarded"})
    if (c.contains(list))
      for (const json& m : c[list]) expected.push_back(path_text(m["path"].get<std::string>()));
  for (const auto& row : table.rows) dumped.push_back(row.at("Path"));
  EXPECT_NE(std::find(dumped.begin(), dumped.end(), "unused_expert"), dumped.end());
  std::sort(expected.begin(), expected.end());
  std::sort(dumped.begin(), dumped.end());
  EXPECT_EQ(dumped, expected);
}

// The Roofline tab's points are the ones `flopscope roofline` draws: one dumped row per circle of the SVG,
// each row's tooltip the circle's <title>.
TEST_F(DumpVsCli, RooflineIsTheRooflineCommandsPoints) {
  const std::string svg_path = (dir_ / "cpu.roofline.svg").string();
  const Output cli = run(std::string(FLOPSCOPE_CLI) + " roofline " + file("cpu.db") + " -o " +
                         quoted(svg_path) + " --force");
  ASSERT_EQ(cli.rc, 0);
  std::string svg;
  {
    std::FILE* f = std::fopen(svg_path.c_str(), "rb");
    ASSERT_NE(f, nullptr);
    char buf[4096];
    std::size_t n;
    while ((n = std::fread(buf, 1, sizeof buf, f)) > 0) svg.append(buf, n);
    std::fclose(f);
  }
  const Table table = dump("roofline", file("cpu.db"));
  ASSERT_EQ(table.header, (std::vector<std::string>{"Path", "Bound", "Point"}));
  ASSERT_FALSE(table.rows.empty());
  std::size_t circles = 0;
  for (std::size_t at = svg.find("<g><title>"); at != std::string::npos; at = svg.find("<g><title>", at + 1))
    ++circles;
  EXPECT_EQ(table.rows.size(), circles);
  for (const auto& row : table.rows) {
    EXPECT_NE(svg.find("<g><title>" + xml_escape(row.at("Point")) + "</title>"), std::string::npos)
        << row.at("Point");
    EXPECT_EQ(row.at("Bound"), "-") << "a CPU run without --peak has no roof";
  }
}

// Bad input: one line naming the file, exit 2; a view that needs two runs says so.
TEST_F(DumpVsCli, BadInputIsOneLineAndExitTwo) {
  const std::string bad = (dir_ / "bad.db").string();
  {
    std::FILE* f = std::fopen(bad.c_str(), "w");
    ASSERT_NE(f, nullptr);
    std::fputs("not a database", f);
    std::fclose(f);
  }
  const std::string gui = std::string("QT_QPA_PLATFORM=offscreen ") + FLOPSCOPE_GUI;
  for (const std::string& args :
       {"--dump tree " + quoted(bad), "--dump diff " + file("v1.db"), "--dump nosuch " + file("v1.db"),
        "--dump diff --map-b '(' " + file("v1.db") + " " + file("v2.db")}) {
    Output o = run(gui + " " + args + " 2>&1 >/dev/null", true);
    EXPECT_EQ(o.rc, 2) << args;
    EXPECT_EQ(std::count(o.out.begin(), o.out.end(), '\n'), 1) << o.out;
    EXPECT_EQ(o.out.rfind("flopscope: error: ", 0), 0u) << o.out;
  }
}

}  // namespace
}  // namespace flopscope::gui
