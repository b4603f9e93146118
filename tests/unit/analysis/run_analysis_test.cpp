#include "analyzer/analysis/run_analysis.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>

#include "analyzer/fleet/ranks_analysis.h"
#include "analyzer/peaks.h"
#include "analyzer/summary_facts_sink.h"
#include "db/run_database.h"

namespace flopscope {
namespace {

RunData small_run() {
  RunData r;
  r.info.source_path = "m.pt";
  r.info.iterations = 2;
  r.modules = {{0, kNoId, "", "Net"}, {1, 0, "fc", "Linear"}};
  for (int it = 0; it < 2; ++it) {
    OpRecord o;
    o.id = it;
    o.iteration = it;
    o.sequence = it;
    o.name = "aten::linear";
    o.module_id = 1;
    o.duration_ns = 100 + it;
    o.flops = 64;
    o.flops_source = FlopsSource::kFormula;
    r.ops.push_back(o);
  }
  return r;
}

class RunAnalysisTest : public ::testing::Test {
 protected:
  void SetUp() override {
    path_ = (std::filesystem::temp_directory_path() / ("run_analysis_" + std::to_string(::getpid()) + ".db"))
                .string();
    auto db = create_run_database(path_, true);
    ASSERT_TRUE(db.ok()) << db.status().message();
    ASSERT_TRUE(write_run_with_facts(**db, small_run()).ok());
  }
  void TearDown() override { std::filesystem::remove(path_); }
  std::string path_;
};

TEST_F(RunAnalysisTest, ReadsTheLeastTheCallerNeeds) {
  auto facts = RunAnalysis::open(path_);
  ASSERT_TRUE(facts.ok()) << facts.status().message();
  EXPECT_EQ(facts->contents(), RunContents::kSummaryFacts);
  EXPECT_TRUE(facts->run().ops.empty());
  // The kernel table needs rows: an error naming the file, not an empty table.
  auto none = facts->kernels();
  ASSERT_FALSE(none.ok());
  EXPECT_NE(none.status().message().find(path_), std::string::npos);

  AnalysisNeeds rows;
  rows.rows = true;
  auto whole = RunAnalysis::open(path_, rows);
  ASSERT_TRUE(whole.ok());
  EXPECT_EQ(whole->contents(), RunContents::kRows);
  EXPECT_EQ(whole->run().ops.size(), 2u);
  EXPECT_TRUE(whole->kernels().ok());
  // Both reads summarize to the same numbers.
  EXPECT_EQ(facts->summary().total.flops, whole->summary().total.flops);
  EXPECT_EQ(facts->summary().modules.size(), whole->summary().modules.size());
  EXPECT_EQ(facts->summary().iteration_time.p50, whole->summary().iteration_time.p50);

  AnalysisNeeds diff;
  diff.totals_only = true;
  auto totals = RunAnalysis::open(path_, diff);
  ASSERT_TRUE(totals.ok());
  EXPECT_EQ(totals->contents(), RunContents::kTotals);
}

TEST_F(RunAnalysisTest, ComputesTheSummaryOnceAndAgainAfterAnEdit) {
  RunAnalysis a = RunAnalysis::of(small_run(), "m.pt");
  const RunSummary* first = &a.summary();
  EXPECT_EQ(first, &a.summary());
  EXPECT_DOUBLE_EQ(a.summary().total.flops, 64);
  a.edit_run().ops[0].flops = 0;
  EXPECT_DOUBLE_EQ(a.summary().total.flops, 32);  // (0 + 64) / 2 iterations: summarized again
}

// The view results (flame, roofline, timeline) and the rank facade: each computed once, each an error
// naming the file when the run lacks what it needs.

// small_run with bytes and start times, read as rows; with a kernel launched before the profiling window
// (an orphan) when asked.
RunData view_run(bool orphan_kernel = false) {
  RunData r = small_run();
  for (auto& o : r.ops) {
    o.start_ns = 1000 * (o.iteration + 1);
    o.duration_ns = 100;
    o.bytes_read = 32;
  }
  if (orphan_kernel) {
    KernelRecord orphan;
    orphan.name = "early_kernel";
    orphan.iteration = -1;
    orphan.start_ns = 10;
    orphan.duration_ns = 5;
    r.kernels.push_back(orphan);
  }
  r.raw_rows = true;
  return r;
}

TEST(RunResults, FlameIsTheIcicleOfTheModuleTreeOrAnErrorNamingTheFile) {
  RunAnalysis a = RunAnalysis::of(view_run(), "runs/m.db");
  auto whole = a.flame();
  ASSERT_TRUE(whole.ok()) << whole.status().message();
  ASSERT_EQ(whole->cells.size(), 2u);  // the model and fc
  EXPECT_EQ(whole->cells[1].label, "fc");
  FlameRequest flops;
  flops.metric = graphs::CostMetric::kFlops;
  flops.root = "fc";
  auto zoomed = a.flame(flops);
  ASSERT_TRUE(zoomed.ok());
  EXPECT_DOUBLE_EQ(zoomed->root_value, 64);  // per iteration
  EXPECT_EQ(zoomed->cells.size(), 1u);

  FlameRequest missing;
  missing.root = "nope";
  auto none = a.flame(missing);
  ASSERT_FALSE(none.ok());
  EXPECT_EQ(none.status().message(), "runs/m.db: no module 'nope' in this run");

  RunData empty;
  empty.modules = {{0, kNoId, "", "Net"}};
  empty.raw_rows = true;
  auto nothing = RunAnalysis::of(std::move(empty), "e.db").flame();
  ASSERT_FALSE(nothing.ok());
  EXPECT_EQ(nothing.status().message().rfind("e.db: nothing to draw: the run has no ", 0), 0u)
      << nothing.status().message();
}

TEST(RunResults, RooflineBoundIsThePeakTablesOneRule) {
  SummaryOptions options;
  options.peak = DevicePeak{"test roof", 1e12, 1e11, "test"};  // ridge at 10 FLOP/B
  RunAnalysis a = RunAnalysis::of(view_run(), "m.db", options);
  const graphs::RooflinePlot& plot = a.roofline();
  EXPECT_EQ(&plot, &a.roofline());  // computed once
  ASSERT_TRUE(plot.peak);
  ASSERT_EQ(plot.points.size(), 1u);
  const graphs::RooflinePoint& p = plot.points[0];
  EXPECT_EQ(p.path, "fc");
  EXPECT_DOUBLE_EQ(p.intensity, 2);  // 64 FLOPs over 32 bytes
  const Roofline expected = roofline(p.flops, p.bytes, p.time_ns, *options.peak);
  EXPECT_TRUE(p.memory_bound);
  EXPECT_EQ(p.memory_bound, expected.memory_bound);
  EXPECT_DOUBLE_EQ(p.attainable, expected.attainable_flops_per_s);
  EXPECT_DOUBLE_EQ(p.attainable, 2e11);  // intensity x bandwidth, under the compute roof
  // An edit drops the results computed so far.
  a.edit_run().ops[0].bytes_read = 64;
  a.edit_run().ops[1].bytes_read = 64;
  EXPECT_DOUBLE_EQ(a.roofline().points.at(0).intensity, 1);
}

TEST(RunResults, TimelineNeedsRowsAndKeepsOrphansOutOfTheFirstIteration) {
  RunData facts = view_run(true);
  facts.raw_rows = false;
  auto refused = RunAnalysis::of(std::move(facts), "stored.db").timeline();
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.status().message().rfind("stored.db: the timeline needs", 0), 0u)
      << refused.status().message();

  RunAnalysis a = RunAnalysis::of(view_run(true), "m.db");
  auto t = a.timeline();
  ASSERT_TRUE(t.ok()) << t.status().message();
  EXPECT_EQ(*t, *a.timeline());  // computed once
  const TimelineIndex& tl = **t;
  ASSERT_EQ(tl.lanes().size(), 3u);  // modules, thread 0 depth 0, gpu 0 stream 0
  EXPECT_EQ(tl.lanes()[0].label, "modules");
  const TimelineLane& device = tl.lanes()[2];
  ASSERT_TRUE(device.is_device);
  ASSERT_EQ(device.events.size(), 1u);
  EXPECT_TRUE(device.events[0].orphan);
  EXPECT_EQ(tl.begin(), 10);                    // the orphan is on the timeline
  EXPECT_EQ(tl.first_iteration_begin(), 1000);  // but in no iteration
  EXPECT_EQ(tl.first_iteration_end(), 1100);
}

TEST(RunResults, HeatmapIsTheCoresOnceForEachSize) {
  RunAnalysis a = RunAnalysis::of(view_run(), "m.db");
  const HeatmapData& h = a.heatmap(5);
  EXPECT_EQ(&h, &a.heatmap(5));  // computed once for a size
  ASSERT_EQ(h.rows.size(), 1u);  // fc: the root has no self time of its own
  EXPECT_EQ(h.rows[0].path, "fc");
  EXPECT_EQ(h.iterations, 2);
  EXPECT_EQ(h.rows[0].stats.values.dense(), heatmap_data(a.summary(), 5).rows.at(0).stats.values.dense());
}

RankPart part(int rank, std::int64_t duration) {
  RankPart p;
  p.rank = rank;
  p.path = "run.rank" + std::to_string(rank) + ".db";
  p.run = view_run();
  for (auto& op : p.run.ops) op.duration_ns = duration;
  return p;
}

TEST(RunResults, RankFacadeAnalysesEachRankAndComparesThem) {
  std::vector<RankPart> parts;
  parts.push_back(part(1, 300));
  parts.push_back(part(0, 100));
  auto ranks = RankAnalysis::of(std::move(parts));
  ASSERT_TRUE(ranks.ok()) << ranks.status().message();
  ASSERT_EQ(ranks->ranks().size(), 2u);
  // By rank, each its own analysis.
  EXPECT_EQ(ranks->ranks()[0].label(), "run.rank0.db");
  EXPECT_EQ(ranks->ranks()[1].label(), "run.rank1.db");
  EXPECT_DOUBLE_EQ(ranks->ranks()[1].summary().iteration_time.p50, 300);
  const RankReport& report = ranks->report();
  ASSERT_EQ(report.ranks.size(), 2u);
  EXPECT_EQ(report.iteration.straggler, 1);
  EXPECT_DOUBLE_EQ(report.ranks[1].time_p50, ranks->ranks()[1].summary().iteration_time.p50);

  std::vector<RankPart> twice;
  twice.push_back(part(0, 100));
  twice.push_back(part(0, 100));
  auto refused = RankAnalysis::of(std::move(twice));
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.status().message().find("rank 0 given twice"), std::string::npos);
}

}  // namespace
}  // namespace flopscope
