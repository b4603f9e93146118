// Memory per op and per module (analyzer/memory_usage) from a hand-made Kineto trace with "[memory]" events:
// an allocation inside a nested op counts for the inner op (and the outer op with its nested ones), a free
// in another op and module, events inside no op of their own thread are unattributed, the CPU and the GPU
// apart; the same figures after the run goes through a run database read without its rows.
#include "analyzer/memory_usage.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "analyzer/analysis/run_analysis.h"
#include "analyzer/summary_facts_sink.h"
#include "db/run_database.h"

namespace flopscope {
namespace {

std::string range(const char* cat, const char* name, int tid, int ts, int dur) {
  return std::string(R"({"ph":"X","cat":")") + cat + R"(","pid":1,"tid":)" + std::to_string(tid) +
         R"(,"name":")" + name + R"(","ts":)" + std::to_string(ts) + R"(,"dur":)" + std::to_string(dur) +
         "},";
}

// Device Type 1 is CUDA, 0 the CPU (whose Device Id is -1).
std::string memory(int tid, int ts, long bytes, long total, int type = 1) {
  return R"({"ph":"i","cat":"cpu_instant_event","s":"t","name":"[memory]","pid":1,"tid":)" +
         std::to_string(tid) + R"(,"ts":)" + std::to_string(ts) + R"(,"args":{"Total Reserved":4194304,)" +
         R"("Total Allocated":)" + std::to_string(total) + R"(,"Bytes":)" + std::to_string(bytes) +
         R"(,"Addr":1000,"Device Id":)" + (type == 0 ? "-1" : "0") + R"(,"Device Type":)" +
         std::to_string(type) + "}},";
}

std::string trace() {
  std::string e = R"({"schemaVersion":1,"traceEvents":[)";
  e += range("user_annotation", "ProfilerStep#0", 1, 0, 1000);
  e += range("user_annotation", "flopscope.module Net ", 1, 1, 900);
  e += range("user_annotation", "flopscope.module Linear fc", 1, 10, 200);
  e += range("user_annotation", "flopscope.module ReLU act", 1, 300, 100);
  e += range("cpu_op", "aten::linear", 1, 20, 150);
  e += range("cpu_op", "aten::empty", 1, 40, 10);
  e += range("cpu_op", "aten::relu", 1, 310, 50);
  e += range("cpu_op", "aten::add", 2, 20, 500);
  e += memory(1, 45, 1024, 1024);   // aten::empty, inside aten::linear, in fc
  e += memory(1, 100, 512, 1536);   // aten::linear itself
  e += memory(3, 100, 128, 1664);   // inside ops of threads 1 and 2 by time, but none of its own
  e += memory(1, 320, -1024, 640);  // a free in aten::relu, in act
  e += memory(1, 330, 64, 64, 0);   // the CPU's, in aten::relu
  e += memory(1, 600, 256, 896);    // in the module's range but in no op
  e += R"({"ph":"i","name":"[memory]","pid":1,"tid":1,"ts":50,"args":{"Device Type":1}})";  // no Bytes
  return e + "]}";
}

// The trace in a folder of its own, removed with it.
struct TraceFile {
  std::filesystem::path dir =
      std::filesystem::temp_directory_path() / ("memory_usage_test." + std::to_string(::getpid()));
  std::string path = (dir / "trace.json").string();
  TraceFile() {
    std::filesystem::create_directories(dir);
    std::ofstream(path) << trace();
  }
  ~TraceFile() { std::filesystem::remove_all(dir); }
};

std::size_t module_index(const RunSummary& s, const std::string& path) {
  for (std::size_t i = 0; i < s.modules.size(); ++i) {
    if (s.modules[i].path == path) return i;
  }
  ADD_FAILURE() << "no module " << path;
  return 0;
}

const MemoryOpRow* op_row(const MemoryUsage& m, const std::string& name, const std::string& device) {
  for (const auto& r : m.ops) {
    if (r.name == name && memory_device_name(m.devices[r.device]) == device) return &r;
  }
  return nullptr;
}

void expect_figures(const RunAnalysis& run) {
  StatusOr<const MemoryUsage*> got = run.memory();
  ASSERT_TRUE(got.ok()) << got.status().message();
  const MemoryUsage& m = **got;
  ASSERT_EQ(m.events, 6);  // the one without Bytes is not kept
  ASSERT_EQ(m.devices.size(), 2U);
  EXPECT_EQ(memory_device_name(m.devices[0]), "cuda:0");  // GPUs first
  EXPECT_EQ(memory_device_name(m.devices[1]), "cpu");
  const MemoryFigures& gpu = m.device_totals[0];
  EXPECT_EQ(gpu.allocated, 1024 + 512 + 128 + 256);
  EXPECT_EQ(gpu.freed, 1024);
  EXPECT_EQ(gpu.peak, 1664);
  EXPECT_EQ(m.unattributed[0].allocated, 128 + 256);
  EXPECT_EQ(m.unattributed[0].allocations, 2);
  EXPECT_EQ(m.device_totals[1].allocated, 64);
  EXPECT_EQ(m.unattributed[1].allocations, 0);

  const MemoryOpRow* empty = op_row(m, "aten::empty", "cuda:0");
  const MemoryOpRow* linear = op_row(m, "aten::linear", "cuda:0");
  const MemoryOpRow* relu = op_row(m, "aten::relu", "cuda:0");
  const MemoryOpRow* relu_cpu = op_row(m, "aten::relu", "cpu");
  ASSERT_TRUE(empty && linear && relu && relu_cpu);
  EXPECT_EQ(op_row(m, "aten::add", "cuda:0"), nullptr);  // another thread's op
  EXPECT_EQ(empty->self.allocated, 1024);
  EXPECT_EQ(linear->self.allocated, 512);
  EXPECT_EQ(linear->total.allocated, 1536);  // with aten::empty nested in it
  EXPECT_EQ(linear->total.peak, 1536);
  EXPECT_EQ(relu->self.freed, 1024);
  EXPECT_EQ(relu->self.net(), -1024);
  EXPECT_EQ(relu_cpu->self.allocated, 64);
  EXPECT_EQ(m.ops.front().name, "aten::linear");  // most allocated (with nested ops) first
  // The GPU's own-op rows and the unattributed part add up to the device's total.
  std::int64_t own = 0;
  for (const auto& r : m.ops) own += r.device == 0 ? r.self.allocated : 0;
  EXPECT_EQ(own + m.unattributed[0].allocated, gpu.allocated);

  const RunSummary& s = run.summary();
  const std::size_t root = module_index(s, ""), fc = module_index(s, "fc"), act = module_index(s, "act");
  ASSERT_NE(m.module_total(fc, 0), nullptr);
  EXPECT_EQ(m.module_total(fc, 0)->allocated, 1536);
  EXPECT_EQ(m.module_total(fc, 1), nullptr);  // nothing on the CPU in fc
  EXPECT_EQ(m.module_total(act, 0)->freed, 1024);
  EXPECT_EQ(m.module_total(act, 1)->allocated, 64);
  EXPECT_EQ(m.module_total(root, 0)->allocated, 1536);  // the unattributed events are no module's
  EXPECT_EQ(m.module_total(root, 0)->net(), 512);
  EXPECT_EQ(module_allocated_text(m, fc), "1.54 kB cuda:0");
  EXPECT_EQ(module_allocated_text(m, act), "64 B cpu");
}

TEST(MemoryUsage, AttributedToTheInnermostOpOfTheEventsThread) {
  const TraceFile file;
  StatusOr<RunAnalysis> run = RunAnalysis::open(file.path);
  ASSERT_TRUE(run.ok()) << run.status().message();
  bool malformed = false;
  for (const auto& q : run->run().quality)
    malformed |= q.code == QualityCode::malformed_memory_events && q.count == 1;
  EXPECT_TRUE(malformed);
  expect_figures(*run);
}

TEST(MemoryUsage, SameFiguresFromARunDatabaseReadWithoutItsRows) {
  const TraceFile file;
  StatusOr<RunAnalysis> trace = RunAnalysis::open(file.path);
  ASSERT_TRUE(trace.ok()) << trace.status().message();
  const std::string db = file.path + ".db";
  auto sink = create_run_database(db, true);
  ASSERT_TRUE(sink.ok()) << sink.status().message();
  ASSERT_TRUE(write_run_with_facts(**sink, trace->run()).ok());
  StatusOr<RunAnalysis> stored = RunAnalysis::open(db);
  ASSERT_TRUE(stored.ok()) << stored.status().message();
  EXPECT_EQ(stored->contents(), RunContents::kSummaryFacts);  // memory() reads the op rows itself
  EXPECT_EQ(stored->run().memory_events.size(), 6U);
  expect_figures(*stored);
}

TEST(MemoryUsage, NothingWithoutMemoryEvents) {
  RunData run;
  RunSummary s;
  EXPECT_TRUE(memory_usage(run, s).empty());
}

}  // namespace
}  // namespace flopscope
