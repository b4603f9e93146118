// Summary facts stored with a run (schema 010) give `report` the same summary as the rows they come from: a
// run written through SummaryFactsSink and read without its op and kernel rows is compared, field by field,
// with the same run summarized from its rows. Damaged facts are refused, not half used.
#include <gtest/gtest.h>
#include <sqlite3.h>
#include <unistd.h>

#include <filesystem>
#include <map>
#include <span>
#include <string>
#include <unordered_map>

#include "analyzer/fact_rows.h"
#include "analyzer/fused_split.h"
#include "analyzer/summary.h"
#include "analyzer/summary_facts_sink.h"
#include "db/model/quality_catalogue.h"
#include "db/run_database.h"
#include "diff_fixtures.h"
#include "summary_expect.h"

namespace flopscope {
namespace {

using testing::expect_same_cost;
using testing::expect_same_stats;

// The diff fixture with kernels: one per op (some with counters), a communication kernel no op launched, an
// op without a formula that launched one, a dangling launch and an orphan; two streams.
RunData with_kernels(RunData run) {
  OpRecord unknown = run.ops.back();
  unknown.id = 2'000'000;
  unknown.name = "custom::mystery";
  unknown.flops = 0;
  unknown.flops_source = FlopsSource::kNone;
  unknown.flops_note = "no formula";
  unknown.sequence += 1;
  run.ops.push_back(unknown);
  std::vector<KernelRecord> kernels;
  std::int64_t clock = 0;
  for (const OpRecord& op : run.ops) {
    KernelRecord k;
    k.id = static_cast<Id>(kernels.size());
    k.name = "gemm_" + std::to_string(op.id % 3);
    k.iteration = op.iteration;
    k.op_id = op.id;
    k.module_id = op.module_id;
    k.stream = 7 + op.id % 2;
    k.start_ns = clock;
    k.duration_ns = op.duration_ns / 2 + 7;
    clock += k.duration_ns / 2 + 3;
    k.has_counters = op.id % 2 == 0;
    k.flops_fp32 = 100;
    k.dram_bytes = 64;
    k.tensor_pipe_inst = 4;
    kernels.push_back(k);
  }
  KernelRecord comm = kernels.front();
  comm.id = static_cast<Id>(kernels.size());
  comm.op_id = kNoId;
  comm.name = "ncclDevKernel_AllReduce_Sum_f32_RING_LL";
  kernels.push_back(comm);
  KernelRecord dangling = comm;
  dangling.id += 1;
  dangling.name = "elementwise_kernel";
  dangling.op_id = 999'999'999;
  kernels.push_back(dangling);
  KernelRecord orphan = dangling;
  orphan.id += 1;
  orphan.iteration = -1;
  kernels.push_back(orphan);
  run.kernels = std::move(kernels);
  return run;
}

// A fused TransformerEncoderLayer call whose inner ops are given to its submodules (analyzer/fused_split).
RunData split_run() {
  RunData r;
  r.modules = {{0, kNoId, "", "Net"},
               {1, 0, "layer", "TransformerEncoderLayer"},
               {2, 1, "layer.self_attn", "MultiheadAttention"},
               {3, 2, "layer.self_attn.out_proj", "NonDynamicallyQuantizableLinear"},
               {4, 1, "layer.linear1", "Linear"},
               {5, 1, "layer.linear2", "Linear"},
               {6, 1, "layer.norm1", "LayerNorm"},
               {7, 1, "layer.norm2", "LayerNorm"}};
  const std::vector<std::pair<const char*, double>> kids = {{"aten::t", 0},
                                                            {"aten::mm", 300},
                                                            {"aten::_transform_bias_rescale_qkv", 20},
                                                            {"aten::bmm", 50},
                                                            {"aten::_softmax", 10},
                                                            {"aten::bmm", 50},
                                                            {"aten::t", 0},
                                                            {"aten::addmm", 100},
                                                            {"aten::add_", 5},
                                                            {"aten::layer_norm", 7},
                                                            {"aten::_addmm_activation", 200},
                                                            {"aten::addmm", 200},
                                                            {"aten::add_", 5},
                                                            {"aten::layer_norm", 7}};
  for (int it = 0; it < 3; ++it) {
    OpRecord fused;
    fused.id = static_cast<Id>(r.ops.size());
    fused.iteration = it;
    fused.sequence = fused.id;
    fused.name = "aten::_transformer_encoder_layer_fwd";
    fused.module_id = 1;
    fused.duration_ns = 1000 + 17 * it;
    fused.flops = 954;
    fused.bytes_read = 1000;
    fused.flops_source = FlopsSource::kFormula;
    r.ops.push_back(fused);
    for (const auto& [name, flops] : kids) {
      OpRecord o;
      o.id = static_cast<Id>(r.ops.size());
      o.iteration = it;
      o.sequence = o.id;
      o.name = name;
      o.module_id = 1;
      o.parent_op_id = fused.id;
      o.depth = 1;
      o.duration_ns = 10 + it;
      o.flops = flops;
      o.flops_source = FlopsSource::kNested;
      r.ops.push_back(o);
    }
  }
  EXPECT_EQ(split_fused_ops(r).fused_ops, 3);
  r.quality.emplace_back(QualityCode::fused_ops_split, 3, "test");
  return r;
}

void write_with_facts(const RunData& run, const std::string& path) {
  auto db = create_run_database(path, true);
  ASSERT_TRUE(db.ok()) << db.status().message();
  SummaryFactsSink sink(**db);
  Status s = write_run(sink, run);
  ASSERT_TRUE(s.ok()) << s.message();
}

RunData read(const std::string& path, const RunReadOptions& options) {
  auto back = read_run_database(path, options);
  EXPECT_TRUE(back.ok()) << back.status().message();
  return back.ok() ? std::move(back).value() : RunData{};
}

void same_rates(const Roofline& a, const Roofline& b, const std::string& what) {
  EXPECT_EQ(a.achieved_flops_per_s, b.achieved_flops_per_s) << what;
  EXPECT_EQ(a.achieved_bytes_per_s, b.achieved_bytes_per_s) << what;
  EXPECT_EQ(a.attainable_flops_per_s, b.attainable_flops_per_s) << what;
  EXPECT_EQ(a.memory_bound, b.memory_bound) << what;
}

void same_timeline(const std::vector<TimelineFacts>& a, const std::vector<TimelineFacts>& b) {
  ASSERT_EQ(a.size(), b.size());
  for (std::size_t i = 0; i < a.size(); ++i) {
    EXPECT_EQ(a[i].device, b[i].device);
    EXPECT_EQ(a[i].stream, b[i].stream);
    EXPECT_EQ(a[i].activities, b[i].activities);
    EXPECT_EQ(a[i].busy_ns, b[i].busy_ns);
    EXPECT_EQ(a[i].idle_ns, b[i].idle_ns);
    EXPECT_EQ(a[i].overlap_ns, b[i].overlap_ns);
    EXPECT_EQ(a[i].communication_busy_ns, b[i].communication_busy_ns);
    EXPECT_EQ(a[i].compute_comm_overlap_ns, b[i].compute_comm_overlap_ns);
    EXPECT_EQ(a[i].gaps, b[i].gaps);
    EXPECT_EQ(a[i].gap_p50_ns, b[i].gap_p50_ns);
    EXPECT_EQ(a[i].gap_max_ns, b[i].gap_max_ns);
  }
}

// Every field `report` prints.
void same_summary(const RunSummary& rows, const RunSummary& facts) {
  EXPECT_FALSE(facts.from_aggregates);
  EXPECT_EQ(rows.iterations, facts.iterations);
  EXPECT_EQ(rows.has_kernels, facts.has_kernels);
  EXPECT_EQ(rows.ops_total, facts.ops_total);
  EXPECT_EQ(rows.ops_with_formula, facts.ops_with_formula);
  expect_same_cost(rows.total, facts.total, "total");
  expect_same_stats(rows.iteration_time, facts.iteration_time, "iteration time");
  expect_same_stats(rows.iteration_gpu_time, facts.iteration_gpu_time, "iteration device time");
  ASSERT_EQ(rows.modules.size(), facts.modules.size());
  for (std::size_t i = 0; i < rows.modules.size(); ++i) {
    const auto &r = rows.modules[i], &f = facts.modules[i];
    testing::expect_same_module(r, f);
    EXPECT_EQ(r.calls, f.calls) << r.path;
    EXPECT_EQ(r.comm_time_ns, f.comm_time_ns) << r.path;
    EXPECT_EQ(r.flops_complete, f.flops_complete) << r.path;
    EXPECT_EQ(r.unknown_time_share, f.unknown_time_share) << r.path;
    same_rates(r.rates, f.rates, r.path);
  }
  ASSERT_EQ(rows.top_ops.size(), facts.top_ops.size());
  for (std::size_t i = 0; i < rows.top_ops.size(); ++i) {
    const auto &r = rows.top_ops[i], &f = facts.top_ops[i];
    EXPECT_EQ(r.name, f.name) << i;
    EXPECT_EQ(r.module_path, f.module_path) << i;
    EXPECT_EQ(r.calls, f.calls) << r.name;
    EXPECT_EQ(r.flops, f.flops) << r.name;
    EXPECT_EQ(r.bytes, f.bytes) << r.name;
    EXPECT_EQ(r.time_ns, f.time_ns) << r.name;
    EXPECT_EQ(r.device_time_ns, f.device_time_ns) << r.name;
    EXPECT_EQ(r.flops_source, f.flops_source) << r.name;
    same_rates(r.rates, f.rates, r.name);
  }
  ASSERT_EQ(rows.coverage_gaps.size(), facts.coverage_gaps.size());
  for (std::size_t i = 0; i < rows.coverage_gaps.size(); ++i) {
    const auto &r = rows.coverage_gaps[i], &f = facts.coverage_gaps[i];
    EXPECT_EQ(r.name, f.name);
    EXPECT_EQ(r.count, f.count);
    EXPECT_EQ(r.time_ns, f.time_ns);
    EXPECT_EQ(r.share_of_time, f.share_of_time);
    EXPECT_EQ(r.device_time_ns, f.device_time_ns);
    EXPECT_EQ(r.share_of_device_time, f.share_of_device_time);
    EXPECT_EQ(r.note, f.note);
  }
  EXPECT_EQ(rows.coverage.known_device_share, facts.coverage.known_device_share);
  EXPECT_EQ(rows.coverage.known_host_share, facts.coverage.known_host_share);
  EXPECT_EQ(rows.coverage.unlinked_device_share, facts.coverage.unlinked_device_share);
  EXPECT_EQ(rows.coverage.flops_complete, facts.coverage.flops_complete);
  EXPECT_EQ(rows.orphans.kernels, facts.orphans.kernels);
  EXPECT_EQ(rows.orphans.time_ns, facts.orphans.time_ns);
  EXPECT_EQ(rows.attribution.kernels, facts.attribution.kernels);
  EXPECT_EQ(rows.attribution.kernels_with_op, facts.attribution.kernels_with_op);
  EXPECT_EQ(rows.attribution.kernels_with_module, facts.attribution.kernels_with_module);
  EXPECT_EQ(rows.attribution.kernel_time_ns, facts.attribution.kernel_time_ns);
  EXPECT_EQ(rows.attribution.kernel_time_attributed_ns, facts.attribution.kernel_time_attributed_ns);
  same_timeline(rows.timeline.devices, facts.timeline.devices);
  same_timeline(rows.timeline.streams, facts.timeline.streams);
  ASSERT_EQ(rows.quality.size(), facts.quality.size());
  for (std::size_t i = 0; i < rows.quality.size(); ++i) {
    EXPECT_EQ(rows.quality[i].code, facts.quality[i].code);
    EXPECT_EQ(rows.quality[i].count, facts.quality[i].count);
    EXPECT_EQ(rows.quality[i].detail, facts.quality[i].detail);
  }
}

TEST(SummaryFacts, ReportReadsNoRowsAndSummarizesAsFromThem) {
  testing::TempDir dir("flopscope-facts-");
  RunData run = with_kernels(testing::make_run(testing::Variant::kV1));
  run.info.device = "Tesla V100-SXM2-16GB";  // a fixed tensor-pipe factor and a peak: rates and bounds
  write_with_facts(run, dir.file("a.db"));
  RunData lean = read(dir.file("a.db"), {.raw_rows = false, .need_summary_facts = true});
  EXPECT_FALSE(lean.raw_rows);
  EXPECT_TRUE(lean.ops.empty());
  EXPECT_TRUE(lean.kernels.empty());
  ASSERT_TRUE(lean.summary_facts.present);
  const RunSummary from_rows = summarize(read(dir.file("a.db"), {}), {.top_ops = 3, .peak = std::nullopt});
  const RunSummary from_facts = summarize(lean, {.top_ops = 3, .peak = std::nullopt});
  // The fixture exercises what the facts hold: calls, gaps, communication, orphans, two streams.
  EXPECT_EQ(from_rows.top_ops.size(), 3u);
  EXPECT_FALSE(from_rows.coverage_gaps.empty());
  EXPECT_GT(from_rows.orphans.kernels, 0);
  EXPECT_GT(from_rows.modules[0].comm_time_ns, 0);
  EXPECT_EQ(from_rows.timeline.streams.size(), 2u);
  EXPECT_GT(from_rows.modules[1].calls, 0);
  same_summary(from_rows, from_facts);
  // Another peak applies at read time, to both alike.
  const DevicePeak peak{.name = "test", .flops_per_s = 1e12, .bytes_per_s = 1e11, .source = "test"};
  same_summary(summarize(read(dir.file("a.db"), {}), {.peak = peak}), summarize(lean, {.peak = peak}));
  // The in-memory run (no database at all) agrees too.
  same_summary(summarize(run), summarize(lean));
}

TEST(SummaryFacts, FusedSplitRunsNeedNoRows) {
  testing::TempDir dir("flopscope-facts-");
  const RunData run = split_run();
  write_with_facts(run, dir.file("s.db"));
  RunData lean = read(dir.file("s.db"), {.raw_rows = false, .need_summary_facts = true});
  EXPECT_FALSE(lean.raw_rows);
  const RunSummary from_rows = summarize(run), from_facts = summarize(lean);
  // The moved cost: linear1 has the inner addmm's FLOPs although no op of its own was recorded for it.
  const int linear1 = from_facts.find("layer.linear1");
  ASSERT_GE(linear1, 0);
  EXPECT_EQ(from_facts.modules[static_cast<std::size_t>(linear1)].inclusive.flops, 200);
  same_summary(from_rows, from_facts);
  // The aggregates alone do not hold the moves: diff-style reads still take the rows of such a run.
  EXPECT_TRUE(read(dir.file("s.db"), {.raw_rows = false}).raw_rows);
}

TEST(SummaryFacts, AFileWithoutFactsIsReadWhole) {
  testing::TempDir dir("flopscope-facts-");
  RunData run = with_kernels(testing::make_run(testing::Variant::kV1));
  auto db = create_run_database(dir.file("plain.db"), true);
  ASSERT_TRUE(db.ok());
  ASSERT_TRUE(write_run(**db, run).ok());  // no SummaryFactsSink: no facts
  RunData back = read(dir.file("plain.db"), {.raw_rows = false, .need_summary_facts = true});
  EXPECT_FALSE(back.summary_facts.present);
  EXPECT_TRUE(back.raw_rows);
  EXPECT_FALSE(back.ops.empty());
  same_summary(summarize(run), summarize(back));
}

void damage(const std::string& path, const std::string& sql) {
  sqlite3* db = nullptr;
  ASSERT_EQ(sqlite3_open(path.c_str(), &db), SQLITE_OK);
  ASSERT_EQ(sqlite3_exec(db, sql.c_str(), nullptr, nullptr, nullptr), SQLITE_OK) << sqlite3_errmsg(db);
  sqlite3_close(db);
}

TEST(SummaryFacts, DamagedFactsAreRefused) {
  testing::TempDir dir("flopscope-facts-");
  const RunData run = with_kernels(testing::make_run(testing::Variant::kV1));
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"UPDATE summary_module SET module_id = 424242 WHERE rowid = 2", "module 424242"},
      {"UPDATE summary_op SET module_id = 424242 WHERE rowid = 1", "module 424242"},
      {"UPDATE summary_module SET host_ns = x'ffffffff0000000000000000' WHERE rowid = 1", "iteration index"},
      {"UPDATE summary_module SET device_ns = x'00' WHERE rowid = 1", "not a multiple of 12"},
  };
  for (const auto& [sql, needle] : cases) {
    const std::string path = dir.file("d.db");
    write_with_facts(run, path);
    damage(path, sql);
    auto back = read_run_database(path, {.raw_rows = false, .need_summary_facts = true});
    ASSERT_FALSE(back.ok()) << sql;
    EXPECT_EQ(back.status().code(), StatusCode::kCorrupt) << sql;
    EXPECT_NE(back.status().message().find(needle), std::string::npos) << back.status().message();
    EXPECT_EQ(back.status().message().find('\n'), std::string::npos);
  }
}

// Ops found by id through a table (any ids) and by position (ids 0..n-1 in row order, as every import and
// profile writes them) give the same facts: the fixture's ids are sparse; renumbered, they are dense.
TEST(SummaryFacts, DenseAndSparseOpIdsGiveTheSameFacts) {
  const RunData sparse = with_kernels(testing::make_run(testing::Variant::kV1));
  RunData dense = sparse;
  std::unordered_map<Id, Id> renumber;
  for (std::size_t i = 0; i < dense.ops.size(); ++i) renumber[dense.ops[i].id] = static_cast<Id>(i);
  ASSERT_NE(renumber.size(), 0u);
  bool was_dense = true;
  for (std::size_t i = 0; i < sparse.ops.size(); ++i)
    was_dense = was_dense && sparse.ops[i].id == static_cast<Id>(i);
  ASSERT_FALSE(was_dense);
  auto moved = [&](Id id) {
    auto it = renumber.find(id);
    return it == renumber.end() ? id : it->second;  // a dangling id stays dangling
  };
  for (OpRecord& op : dense.ops) {
    op.id = moved(op.id);
    op.parent_op_id = moved(op.parent_op_id);
  }
  for (KernelRecord& k : dense.kernels) k.op_id = moved(k.op_id);
  const SummaryFacts a = summary_facts(sparse), b = summary_facts(dense);
  EXPECT_EQ(a.known_compute_ns, b.known_compute_ns);
  EXPECT_EQ(a.unlinked_compute_ns, b.unlinked_compute_ns);
  same_summary(summarize_facts(sparse, a), summarize_facts(dense, b));
  // Kernels reach their ops' groups through the lookups: device time per top op.
  ASSERT_EQ(a.top_ops.size(), b.top_ops.size());
  double device = 0;
  for (std::size_t i = 0; i < a.top_ops.size(); ++i) {
    EXPECT_EQ(a.top_ops[i].device_time_ns, b.top_ops[i].device_time_ns) << a.top_ops[i].name;
    device += a.top_ops[i].device_time_ns;
  }
  EXPECT_GT(device, 0);
  ASSERT_EQ(a.gaps.size(), b.gaps.size());
  for (std::size_t i = 0; i < a.gaps.size(); ++i) {
    EXPECT_EQ(a.gaps[i].name, b.gaps[i].name);
    EXPECT_EQ(a.gaps[i].device_time_ns, b.gaps[i].device_time_ns);
  }
}

// Op names and notes are interned while rows stream in: thousands of distinct ones, short and long, keep
// their own texts (a gap's name and its note) however the table grows.
TEST(SummaryFacts, InternedNamesAndNotesKeepTheirText) {
  RunData run;
  run.modules = {{0, kNoId, "", "Net"}};
  for (int i = 0; i < 5000; ++i) {
    OpRecord op;
    op.id = i;
    op.sequence = i;
    op.module_id = 0;
    op.duration_ns = 10 + i;
    op.name =
        i % 2 == 0 ? "o" + std::to_string(i) : "custom::a_rather_long_operator_name_" + std::to_string(i);
    op.flops_note = i % 3 == 0 ? std::string() : "no formula for " + op.name;
    run.ops.push_back(op);
  }
  FactRows rows;
  rows.add_modules(run.modules);
  for (std::size_t at = 0; at < run.ops.size(); at += 7) {  // in batches, as a sink receives them
    rows.add_ops(
        std::span<const OpRecord>(run.ops).subspan(at, std::min<std::size_t>(7, run.ops.size() - at)));
  }
  const SummaryFacts f = summary_facts(rows);
  ASSERT_EQ(f.gaps.size(), run.ops.size());
  std::map<std::string, const OpRecord*> by_name;
  for (const OpRecord& op : run.ops) by_name[op.name] = &op;
  for (const GapFacts& g : f.gaps) {
    auto it = by_name.find(g.name);
    ASSERT_NE(it, by_name.end()) << g.name;
    EXPECT_EQ(g.note, it->second->flops_note) << g.name;
    EXPECT_EQ(g.time_ns, static_cast<double>(it->second->duration_ns)) << g.name;
    EXPECT_EQ(g.count, 1) << g.name;
  }
  ASSERT_EQ(f.top_ops.size(), run.ops.size());
}

}  // namespace
}  // namespace flopscope
