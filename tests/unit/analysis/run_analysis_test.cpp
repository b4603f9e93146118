#include "analyzer/analysis/run_analysis.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>

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

}  // namespace
}  // namespace flopscope
