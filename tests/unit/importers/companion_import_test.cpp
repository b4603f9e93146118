// Traces written by flopscope's Python companion: "flopscope.module <Class> <path>" ranges name modules by
// their named_modules() paths, taken as given; the companion's side file adds weights by path.
#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <set>

#include "analyzer/importers/companion_run.h"
#include "analyzer/importers/importer.h"
#include "import_test_util.h"

namespace flopscope {
namespace {

using testing::module_path;
using testing::temp_dir;
using testing::write_text;

std::string range(const char* name, int ts, int dur, const char* cat = "user_annotation") {
  return std::string(R"({"ph":"X","cat":")") + cat + R"(","pid":1,"tid":1,"name":")" + name + R"(","ts":)" +
         std::to_string(ts) + R"(,"dur":)" + std::to_string(dur) + "}";
}
std::string op(const char* name, int ts, int dur, const char* dims) {
  return std::string(R"({"ph":"X","cat":"cpu_op","pid":1,"tid":1,"name":")") + name + R"(","ts":)" +
         std::to_string(ts) + R"(,"dur":)" + std::to_string(dur) + R"(,"args":{"Input Dims":)" + dims +
         R"(,"Input type":["float","float","float"]}})";
}

// Two iterations of a model whose `shared` Linear is called from two parents: each call keeps the path the
// companion gave it (block.0.shared, then block.1.shared), unlike class-based naming. `module_cat`: torch's
// C++ range (_RecordFunctionFast, torch >= 2.2) is filed under cpu_op.
std::string trace(const char* module_cat = "user_annotation") {
  std::string e = "{\"schemaVersion\":1,\"traceEvents\":[";
  for (int it = 0; it < 2; ++it) {
    int t = it * 1000;
    std::string step = "ProfilerStep#" + std::to_string(it);
    e += range(step.c_str(), t, 900) + ",";
    e += range("flopscope.module Model ", t + 1, 800, module_cat) + ",";
    e += range("flopscope.module Block block.0", t + 10, 300, module_cat) + ",";
    e += range("flopscope.module Linear block.0.shared", t + 20, 100, module_cat) + ",";
    e += op("aten::linear", t + 30, 50, "[[2,4],[8,4],[8]]") + ",";
    e += range("flopscope.module Block block.1", t + 400, 300, module_cat) + ",";
    e += range("flopscope.module Linear block.1.shared", t + 410, 100, module_cat) + ",";
    e += op("aten::linear", t + 420, 50, "[[2,4],[8,4],[8]]") + ",";
    e += op("aten::relu", t + 750, 10, "[[2,8]]") + ",";
  }
  e.pop_back();
  return e + "]}";
}

TEST(CompanionImport, ModulePathsAreTakenAsGiven) {
  std::string dir = temp_dir();
  write_text(dir + "/trace.json", trace());
  MemoryRunSink sink;
  ImportOptions options;
  options.progress = false;
  options.modules = {{kNoId, kNoId, "", "Model"},        {kNoId, kNoId, "block", "ModuleList"},
                     {kNoId, kNoId, "block.0", "Block"}, {kNoId, kNoId, "block.0.shared", "Linear"},
                     {kNoId, kNoId, "block.1", "Block"}, {kNoId, kNoId, "unused", "Dropout"}};
  ASSERT_TRUE(import_trace(dir + "/trace.json", sink, options).ok());
  const RunData& run = sink.data();
  std::map<std::string, std::string> types;
  for (const auto& m : run.modules) types[m.path] = m.type;
  EXPECT_EQ(types[""], "Model");
  EXPECT_EQ(types["block.0.shared"], "Linear");
  EXPECT_EQ(types["block.1.shared"], "Linear");
  EXPECT_EQ(types["unused"], "Dropout");  // never called, still in the tree
  EXPECT_EQ(types.count("Block_0"), 0U);  // no class-based names
  std::map<std::string, int> linear_by_path;
  int relu_at_root = 0;
  for (const auto& o : run.ops) {
    if (o.name == "aten::linear") ++linear_by_path[module_path(run, o.module_id)];
    if (o.name == "aten::relu") relu_at_root += module_path(run, o.module_id).empty();
  }
  EXPECT_EQ(linear_by_path["block.0.shared"], 2);
  EXPECT_EQ(linear_by_path["block.1.shared"], 2);
  EXPECT_EQ(relu_at_root, 2);
  std::set<int> iterations;
  for (const auto& o : run.ops) iterations.insert(o.iteration);
  EXPECT_EQ(iterations.size(), 2U);
}

TEST(CompanionImport, ModuleRangesFiledAsOpsAreStillModules) {
  std::string dir = temp_dir();
  write_text(dir + "/trace.json", trace("cpu_op"));
  MemoryRunSink sink;
  ImportOptions options;
  options.progress = false;
  ASSERT_TRUE(import_trace(dir + "/trace.json", sink, options).ok());
  const RunData& run = sink.data();
  std::map<std::string, int> ops_by_path;
  for (const auto& o : run.ops) {
    EXPECT_FALSE(o.name.starts_with("flopscope.module")) << o.name;
    ++ops_by_path[module_path(run, o.module_id)];
  }
  EXPECT_EQ(ops_by_path["block.0.shared"], 2);
  EXPECT_EQ(ops_by_path["block.1.shared"], 2);
  EXPECT_EQ(ops_by_path[""], 2);  // the relu
  EXPECT_EQ(ops_by_path.size(), 3U);
}

TEST(CompanionImport, SideFileAddsWeightsAndActivationsByPath) {
  std::string dir = temp_dir();
  write_text(dir + "/trace.json", trace());
  // A content sketch of kSketchBuckets values (non-finite ones as the companion writes them).
  std::string sketch = R"([2,"nan")";
  for (int k = 2; k < kSketchBuckets; ++k) sketch += ",0";
  sketch += "]";
  write_text(dir + "/info.7.json", R"({"pid":7,"torch_version":"1.13","backend":"event-tree","root_calls":2,
    "iterations_begun":2,"warmup":0,"iterations":2,"iterations_requested":10,"complete":false,"trace":"trace.json",
    "root":"Model","modules":[["","Model"],["block","ModuleList"],["block.0","Block"],["block.0.shared","Linear"]],
    "params":[{"name":"block.0.shared.weight","dtype":"float32","shape":[8,4],"numel":32,"bytes":128,"l2":0,
               "max_abs":0,"nonzero_fraction":0,"sha256":"ab"},
              {"name":"scale","dtype":"float32","shape":[],"numel":1,"bytes":4,"l2":2,"max_abs":2,
               "nonzero_fraction":1,"sha256":"cd","sum":2,"sketch":)" +
                                       sketch + R"(},
              {"name":"meta_w","dtype":"float32","shape":[2],"numel":2,"bytes":8,"unknown":"meta tensor"}],
    "activations":[{"path":"block.0.shared","iteration":1,"call":0,"numel":16,"l2":"inf","max_abs":1,
                    "zero_fraction":0.5,"rel_change":0.25},
                   {"path":"nowhere","iteration":0,"call":0,"numel":1,"l2":1,"max_abs":1,"zero_fraction":0}],
    "activation_cost_ns":1000,"notes":["a note"]})");
  auto info = read_companion_info(dir + "/info.7.json");
  ASSERT_TRUE(info.ok()) << info.status().message();
  EXPECT_EQ(info->params.size(), 2U);
  EXPECT_EQ(info->params_without_statistics.size(), 1U);
  MemoryRunSink memory;
  CompanionSink sink(memory, *info, {}, [](RunInfo& r) { r.source_path = "prog.py"; });
  ImportOptions options;
  options.progress = false;
  options.modules = info->modules;
  ASSERT_TRUE(import_trace(dir + "/trace.json", sink, options).ok());
  const RunData& run = memory.data();
  EXPECT_EQ(run.info.source_path, "prog.py");
  EXPECT_EQ(run.info.iterations, 2);
  ASSERT_EQ(run.params.size(), 2U);
  EXPECT_EQ(module_path(run, run.params[0].module_id), "block.0.shared");
  EXPECT_EQ(run.params[0].dtype, "float32");
  EXPECT_EQ(module_path(run, run.params[1].module_id), "");
  EXPECT_TRUE(run.params[0].sketch.empty());  // written by a companion without sketches
  ASSERT_EQ(run.params[1].sketch.size(), static_cast<std::size_t>(kSketchBuckets));
  EXPECT_EQ(run.params[1].sketch[0], 2);
  EXPECT_TRUE(std::isnan(run.params[1].sketch[1]));
  EXPECT_EQ(run.params[1].sketch[60], 0);
  EXPECT_EQ(run.params[1].sum, 2);
  ASSERT_EQ(run.activations.size(), 1U);
  EXPECT_EQ(module_path(run, run.activations[0].module_id), "block.0.shared");
  EXPECT_TRUE(std::isinf(run.activations[0].out_l2));
  EXPECT_TRUE(run.activations[0].has_rel_change);
  EXPECT_EQ(testing::issue_count(run, QualityCode::activations_of_unknown_modules), 1);
  EXPECT_EQ(testing::issue_count(run, QualityCode::params_without_statistics), 1);
  EXPECT_EQ(testing::issue_count(run, QualityCode::companion_note), 1);
  EXPECT_EQ(testing::issue_detail(run, QualityCode::companion_note), "a note");
}

TEST(CompanionImport, UnreadableSideFileIsOneLine) {
  std::string dir = temp_dir();
  write_text(dir + "/info.1.json", "{\"pid\": 1, ");
  auto info = read_companion_info(dir + "/info.1.json");
  ASSERT_FALSE(info.ok());
  EXPECT_NE(info.status().message().find("info.1.json"), std::string::npos);
  EXPECT_EQ(info.status().message().find('\n'), std::string::npos);
}

}  // namespace
}  // namespace flopscope
