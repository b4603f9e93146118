// Aggregates stored with a run (schema 007) give the same diff and module summary as the rows they come
// from: a run read without its op and kernel rows is compared, field by field, with the same run read whole.
#include <gtest/gtest.h>
#include <sqlite3.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <string>

#include "analyzer/diff/diff.h"
#include "analyzer/importers/importer.h"
#include "db/model/op_signature.h"
#include "db/model/run_aggregates.h"
#include "db/model/run_sink.h"
#include "db/run_database.h"
#include "diff_fixtures.h"
#include "summary_expect.h"

namespace flopscope {
namespace {

namespace fs = std::filesystem;
using testing::expect_same_cost;
using testing::expect_same_stats;
using testing::FixtureOptions;
using testing::Variant;
using TempDir = testing::TempDir;

// Turns a current file's module tree back into the whole-path `module` table of schemas 1-8 and drops the
// summary-fact tables of schema 10, the parameter sketch of 11, the iteration processes of 12, the outputs
// of 13, the kernels' launch calls of 14, the iterations' rule of 15, the export's host events of 16 and the
// memory events of 17, for tests that fake an older file from a new one (steps 9 to 17 would otherwise find
// their tables and columns there already).
constexpr const char* kWholePathModuleTable =
    "CREATE TABLE module_v1 AS SELECT id, parent_id, path, type FROM module; DROP VIEW module; "
    "DROP TABLE module_node; ALTER TABLE module_v1 RENAME TO module; DROP TABLE summary_run; "
    "DROP TABLE summary_module; DROP TABLE summary_op; DROP TABLE summary_gap; DROP TABLE summary_timeline; "
    "ALTER TABLE param DROP COLUMN sketch; ALTER TABLE param DROP COLUMN \"sum\"; DROP TABLE "
    "iteration_process; DROP TABLE output_tensor; ALTER TABLE kernel DROP COLUMN launch_name; "
    "ALTER TABLE kernel DROP COLUMN launch_start_ns; ALTER TABLE kernel DROP COLUMN launch_duration_ns; "
    "ALTER TABLE kernel DROP COLUMN launch_thread; ALTER TABLE run DROP COLUMN iterations_from; "
    "DROP TABLE host_event; DROP TABLE trace_device_properties; DROP TABLE memory_event; ";

// The fixture with what real runs have besides plain ops: a kernel per op, a nested op, a kernel no op
// launched, one whose op is not in the run, and an orphan outside every iteration.
RunData with_kernels(RunData run) {
  std::vector<KernelRecord> kernels;
  for (const OpRecord& op : run.ops) {
    KernelRecord k;
    k.id = static_cast<Id>(kernels.size());
    k.name = "gemm_" + std::to_string(op.id % 3);
    k.iteration = op.iteration;
    k.op_id = op.id;
    k.module_id = op.module_id;
    k.duration_ns = op.duration_ns / 2 + 7;
    k.has_counters = op.id % 2 == 0;
    k.flops_fp32 = 100;
    k.dram_bytes = 64;     // dram__bytes.sum only: no read/write split
    if (op.id % 4 == 0) {  // these measured the split too
      k.dram_bytes_read = 40;
      k.dram_bytes_written = 24;
    }
    k.tensor_pipe_inst = 4;
    kernels.push_back(k);
  }
  OpRecord nested = run.ops.front();
  nested.id = 1'000'000;
  nested.parent_op_id = run.ops.front().id;
  nested.flops_source = FlopsSource::kNested;
  nested.duration_ns = 11;
  run.ops.push_back(nested);
  KernelRecord unlinked = kernels.front();
  unlinked.id = static_cast<Id>(kernels.size());
  unlinked.op_id = kNoId;
  unlinked.name = "nccl_allreduce";
  kernels.push_back(unlinked);
  KernelRecord dangling = unlinked;
  dangling.id += 1;
  dangling.op_id = 999'999'999;
  kernels.push_back(dangling);
  KernelRecord orphan = unlinked;
  orphan.id += 2;
  orphan.iteration = -1;
  kernels.push_back(orphan);
  run.kernels = std::move(kernels);
  return run;
}

RunData written_and_read(const RunData& run, const std::string& path, bool raw_rows) {
  auto sink = create_run_database(path, true);
  EXPECT_TRUE(sink.ok());
  EXPECT_TRUE(write_run(**sink, run).ok());
  auto back = read_run_database(path, {.raw_rows = raw_rows});
  EXPECT_TRUE(back.ok()) << back.status().message();
  return std::move(back).value();
}

void expect_same_side(const SideCost& a, const SideCost& b, const std::string& what) {
  EXPECT_EQ(a.present, b.present) << what;
  EXPECT_EQ(a.ops, b.ops) << what;
  EXPECT_EQ(a.kernels, b.kernels) << what;
  EXPECT_EQ(a.flops, b.flops) << what;
  EXPECT_EQ(a.nested_flops, b.nested_flops) << what;
  EXPECT_EQ(a.bytes, b.bytes) << what;
  EXPECT_EQ(a.flops_known, b.flops_known) << what;
  EXPECT_EQ(a.share_time, b.share_time) << what;
  expect_same_stats(a.time, b.time, what);
}

TEST(Aggregates, LeanReadLeavesTheRowsUnread) {
  TempDir dir("flopscope-agg-");
  RunData lean = written_and_read(with_kernels(testing::make_run(Variant::kV1)), dir.file("a.db"), false);
  EXPECT_FALSE(lean.raw_rows);
  EXPECT_TRUE(lean.ops.empty());
  EXPECT_TRUE(lean.kernels.empty());
  EXPECT_TRUE(lean.aggregates.present);
  EXPECT_FALSE(lean.aggregates.ops.empty());
  EXPECT_EQ(lean.aggregates.iterations.size(), 8u);  // the fixture's iterations; the orphan's -1 is not one
}

TEST(Aggregates, SummaryFromAggregatesEqualsSummaryFromRows) {
  TempDir dir("flopscope-agg-");
  RunData run = with_kernels(testing::make_run(Variant::kV1));
  run.info.device = "Tesla V100-SXM2-16GB";  // a fixed tensor-pipe factor: tensor FLOPs from the counters
  RunSummary full = summarize(written_and_read(run, dir.file("a.db"), true));
  RunSummary lean = summarize(written_and_read(run, dir.file("a.db"), false));
  EXPECT_GT(full.total.tensor_flops, 0);
  EXPECT_GT(full.total.dram_unsplit, 0);  // both kinds of DRAM counters are in the fixture
  EXPECT_GT(full.total.dram_read, 0);
  EXPECT_FALSE(full.from_aggregates);
  EXPECT_TRUE(lean.from_aggregates);
  EXPECT_EQ(full.iterations, lean.iterations);
  EXPECT_EQ(full.has_kernels, lean.has_kernels);
  EXPECT_EQ(full.orphans.kernels, lean.orphans.kernels);
  EXPECT_EQ(full.orphans.time_ns, lean.orphans.time_ns);
  EXPECT_EQ(full.ops_total, lean.ops_total);
  EXPECT_EQ(full.ops_with_formula, lean.ops_with_formula);
  expect_same_cost(full.total, lean.total, "total");
  expect_same_stats(full.iteration_time, lean.iteration_time, "iteration time");
  expect_same_stats(full.iteration_gpu_time, lean.iteration_gpu_time, "iteration gpu time");
  ASSERT_EQ(full.modules.size(), lean.modules.size());
  for (std::size_t i = 0; i < full.modules.size(); ++i) {
    const auto &f = full.modules[i], &l = lean.modules[i];
    testing::expect_same_module(f, l);
    EXPECT_EQ(f.share_flops, l.share_flops) << f.path;
  }
}

void expect_same_summary(const RunSummary& full, const RunSummary& lean) {
  EXPECT_FALSE(full.from_aggregates);
  EXPECT_TRUE(lean.from_aggregates);
  EXPECT_EQ(full.has_kernels, lean.has_kernels);
  expect_same_cost(full.total, lean.total, "total");
  ASSERT_EQ(full.modules.size(), lean.modules.size());
  for (std::size_t i = 0; i < full.modules.size(); ++i) {
    expect_same_cost(full.modules[i].self, lean.modules[i].self, full.modules[i].path + " self");
    expect_same_cost(full.modules[i].inclusive, lean.modules[i].inclusive,
                     full.modules[i].path + " inclusive");
    expect_same_stats(full.modules[i].gpu_time, lean.modules[i].gpu_time, full.modules[i].path + " gpu time");
  }
}

// A real Nsight Compute export whose DRAM counter is dram__bytes.sum only: read without its kernel rows, the
// run still says how many DRAM bytes have no read/write split (schema 008's module_aggregate.dram_unsplit).
TEST(Aggregates, NcuTotalOnlyDramFromAggregatesEqualsRows) {
  TempDir dir("flopscope-agg-");
  MemoryRunSink sink;
  ImportOptions options;
  options.progress = false;
  const std::string csv =
      std::string(FLOPSCOPE_SOURCE_DIR) + "/tests/data/ncu/leleucas__bert_torch_nsight.csv";
  ASSERT_TRUE(import_trace(csv, sink, options).ok());
  const RunData run = std::move(sink.data());
  ASSERT_EQ(run.info.source_kind, SourceKind::kNcu);
  const RunSummary full = summarize(written_and_read(run, dir.file("ncu.db"), true));
  const RunSummary lean = summarize(written_and_read(run, dir.file("ncu.db"), false));
  EXPECT_GT(full.total.dram_bytes, 0);
  EXPECT_EQ(full.total.dram_unsplit, full.total.dram_bytes);  // every kernel measured the total only
  EXPECT_FALSE(lean.total.dram_split_known());
  expect_same_summary(full, lean);
}

// A version 7 file (aggregates without dram_unsplit) gets the column from its kernel rows by step 008.
TEST(Aggregates, Version7FileGetsDramUnsplitFromItsKernelRows) {
  TempDir dir("flopscope-agg-");
  const std::string path = dir.file("v7.db");
  RunData run = with_kernels(testing::make_run(Variant::kV1));
  const RunSummary full = summarize(written_and_read(run, path, true));
  ASSERT_GT(full.total.dram_unsplit, 0);
  sqlite3* db = nullptr;
  ASSERT_EQ(sqlite3_open(path.c_str(), &db), SQLITE_OK);
  const std::string v7 = std::string("ALTER TABLE module_aggregate DROP COLUMN dram_unsplit; ") +
                         kWholePathModuleTable + "PRAGMA user_version = 7";
  ASSERT_EQ(sqlite3_exec(db, v7.c_str(), nullptr, nullptr, nullptr), SQLITE_OK);
  sqlite3_close(db);
  auto old = read_run_database(path, {.raw_rows = false});
  ASSERT_TRUE(old.ok()) << old.status().message();
  EXPECT_FALSE(old->raw_rows);  // the stored aggregates are used; the migration read the kernel rows
  expect_same_summary(full, summarize(*old));
}

void expect_same_diff(const RunDiff& f, const RunDiff& l) {
  EXPECT_EQ(f.gpu_time, l.gpu_time);
  EXPECT_EQ(f.a.flops, l.a.flops);
  EXPECT_EQ(f.b.kernels, l.b.kernels);
  expect_same_stats(f.a.time, l.a.time, "A time");
  expect_same_stats(f.b.time, l.b.time, "B time");
  EXPECT_EQ(f.sentence.text(), l.sentence.text());
  ASSERT_EQ(f.modules.size(), l.modules.size());
  for (std::size_t i = 0; i < f.modules.size(); ++i) {
    EXPECT_EQ(f.modules[i].path, l.modules[i].path);
    EXPECT_EQ(f.modules[i].verdict_text, l.modules[i].verdict_text) << f.modules[i].path;
    EXPECT_EQ(f.modules[i].time_text, l.modules[i].time_text) << f.modules[i].path;
    expect_same_side(f.modules[i].a, l.modules[i].a, f.modules[i].path + " A");
    expect_same_side(f.modules[i].b, l.modules[i].b, f.modules[i].path + " B");
  }
  ASSERT_EQ(f.ops.size(), l.ops.size());
  for (std::size_t i = 0; i < f.ops.size(); ++i) {
    const std::string what = f.ops[i].module_path + " " + f.ops[i].name + "(" + f.ops[i].signature + ")";
    EXPECT_EQ(what, l.ops[i].module_path + " " + l.ops[i].name + "(" + l.ops[i].signature + ")");
    EXPECT_EQ(f.ops[i].status, l.ops[i].status) << what;
    EXPECT_EQ(f.ops[i].time_status, l.ops[i].time_status) << what;
    expect_same_side(f.ops[i].a, l.ops[i].a, what + " A");
    expect_same_side(f.ops[i].b, l.ops[i].b, what + " B");
  }
}

TEST(Aggregates, DiffFromAggregatesEqualsDiffFromRows) {
  TempDir dir("flopscope-agg-");
  FixtureOptions slower;
  slower.time_scale = 1.3;
  for (bool kernels : {false, true}) {
    RunData a = testing::make_run(Variant::kV1), b = testing::make_run(Variant::kV2, slower);
    if (kernels) {
      a = with_kernels(std::move(a));
      b = with_kernels(std::move(b));
    }
    const RunDiff full =
        diff_runs(written_and_read(a, dir.file("a.db"), true), written_and_read(b, dir.file("b.db"), true));
    const RunDiff lean =
        diff_runs(written_and_read(a, dir.file("a.db"), false), written_and_read(b, dir.file("b.db"), false));
    SCOPED_TRACE(kernels ? "with kernels" : "host only");
    EXPECT_FALSE(full.ops.empty());
    expect_same_diff(full, lean);
    // with_kernels adds a nested op: its FLOPs reach the lean read through the op rows that have some.
    if (kernels) {
      EXPECT_TRUE(std::any_of(lean.ops.begin(), lean.ops.end(),
                              [](const OpDiff& o) { return o.a.present && o.a.nested_flops > 0; }));
    }
  }
}

TEST(Aggregates, KernelsBeforeTheirOpsAggregateTheSame) {
  const RunData run = with_kernels(testing::make_run(Variant::kV1));
  RunAggregates in_order = aggregate_rows(run.ops, run.kernels);
  AggregateBuilder b;
  b.add_kernels(run.kernels);  // a writer that streams kernels first: they wait for their ops
  b.add_ops(run.ops);
  RunAggregates reversed = b.finish();
  ASSERT_EQ(in_order.ops.size(), reversed.ops.size());
  for (std::size_t i = 0; i < in_order.ops.size(); ++i) {
    // Rows of kernels whose op is missing are created at finish(); compare by identity.
    const OpAggregate& x = in_order.ops[i];
    auto it = std::find_if(reversed.ops.begin(), reversed.ops.end(), [&](const OpAggregate& y) {
      return y.module_id == x.module_id && y.name == x.name && y.signature == x.signature;
    });
    ASSERT_NE(it, reversed.ops.end()) << x.name;
    EXPECT_EQ(x.calls, it->calls) << x.name;
    EXPECT_EQ(x.kernels, it->kernels) << x.name;
    EXPECT_EQ(x.host_ns, it->host_ns) << x.name;
    EXPECT_EQ(x.device_ns, it->device_ns) << x.name;
  }
  EXPECT_EQ(in_order.iterations, reversed.iterations);
}

TEST(Aggregates, OlderFileGetsItsAggregatesComputedFromItsRows) {
  TempDir dir("flopscope-agg-");
  const std::string path = dir.file("old.db");
  const RunData run = with_kernels(testing::make_run(Variant::kV1));
  RunData fresh = written_and_read(run, path, true);
  // Make it a version 6 file: what flopscope wrote before the aggregates.
  sqlite3* db = nullptr;
  ASSERT_EQ(sqlite3_open(path.c_str(), &db), SQLITE_OK);
  const std::string v6 = std::string(
                             "DROP TABLE aggregate_iteration; DROP TABLE module_aggregate; "
                             "DROP TABLE op_aggregate; ") +
                         kWholePathModuleTable + "PRAGMA user_version = 6";
  ASSERT_EQ(sqlite3_exec(db, v6.c_str(), nullptr, nullptr, nullptr), SQLITE_OK);
  sqlite3_close(db);
  auto old = read_run_database(path, {.raw_rows = false});
  ASSERT_TRUE(old.ok()) << old.status().message();
  EXPECT_TRUE(old->raw_rows);  // the rows had to be read to compute them
  EXPECT_EQ(old->ops.size(), run.ops.size());
  ASSERT_TRUE(old->aggregates.present);
  EXPECT_EQ(old->aggregates.iterations, fresh.aggregates.iterations);
  ASSERT_EQ(old->aggregates.ops.size(), fresh.aggregates.ops.size());
  for (std::size_t i = 0; i < fresh.aggregates.ops.size(); ++i) {
    EXPECT_EQ(old->aggregates.ops[i].signature, fresh.aggregates.ops[i].signature);
    EXPECT_EQ(old->aggregates.ops[i].calls, fresh.aggregates.ops[i].calls);
    EXPECT_EQ(old->aggregates.ops[i].nested_flops, fresh.aggregates.ops[i].nested_flops);
    EXPECT_EQ(old->aggregates.ops[i].host_ns, fresh.aggregates.ops[i].host_ns);
    EXPECT_EQ(old->aggregates.ops[i].device_ns, fresh.aggregates.ops[i].device_ns);
  }
  ASSERT_EQ(old->aggregates.modules.size(), fresh.aggregates.modules.size());
  for (std::size_t i = 0; i < fresh.aggregates.modules.size(); ++i) {
    EXPECT_EQ(old->aggregates.modules[i].module_id, fresh.aggregates.modules[i].module_id);
    EXPECT_EQ(old->aggregates.modules[i].flops, fresh.aggregates.modules[i].flops);
    EXPECT_EQ(old->aggregates.modules[i].host_ns, fresh.aggregates.modules[i].host_ns);
    EXPECT_EQ(old->aggregates.modules[i].orphan_kernels, fresh.aggregates.modules[i].orphan_kernels);
  }
}

TEST(Aggregates, DeadComputeRecordsNeedTheRows) {
  TempDir dir("flopscope-agg-");
  RunData run = testing::make_run(Variant::kV1);
  run.discarded.push_back({run.ops.front().id, run.ops.front().id, "constant"});
  RunData back = written_and_read(run, dir.file("d.db"), false);
  EXPECT_TRUE(back.raw_rows);
  EXPECT_EQ(back.ops.size(), run.ops.size());
}

TEST(Aggregates, DamagedTimeBlobIsCorrupt) {
  TempDir dir("flopscope-agg-");
  const std::string path = dir.file("bad.db");
  written_and_read(testing::make_run(Variant::kV1), path, true);
  sqlite3* db = nullptr;
  ASSERT_EQ(sqlite3_open(path.c_str(), &db), SQLITE_OK);
  ASSERT_EQ(sqlite3_exec(db, "UPDATE op_aggregate SET host_ns = x'0102'", nullptr, nullptr, nullptr),
            SQLITE_OK);
  sqlite3_close(db);
  auto r = read_run_database(path, {.raw_rows = false});
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), StatusCode::kCorrupt);
  EXPECT_NE(r.status().message().find("not a multiple of 12"), std::string::npos) << r.status().message();
}

}  // namespace
}  // namespace flopscope
