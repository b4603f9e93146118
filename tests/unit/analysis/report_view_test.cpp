#include "analyzer/analysis/report_view.h"

#include <gtest/gtest.h>

namespace flopscope {
namespace {

RunSummary host_summary() {
  RunSummary s;
  s.modules.resize(1);
  s.iteration_time.mean = 1000;
  s.ops_total = 10;
  s.ops_with_formula = 10;
  OpSummary known;
  known.name = "aten::mm";
  known.flops = 100;
  known.flops_source = "formula";
  known.time_ns = 250;
  known.device_time_ns = 40;
  OpSummary unknown;
  unknown.name = "custom::op";
  unknown.flops_source = "none";
  unknown.time_ns = 100;
  s.top_ops = {known, unknown};
  return s;
}

TEST(ReportView, HostRunSharesAreOfHostTimePerIteration) {
  RunSummary s = host_summary();
  ReportView v = make_report_view(s, 15);
  EXPECT_EQ(v.op_share_of, ShareOf::kHostTimePerIteration);
  EXPECT_STREQ(to_string(v.op_share_of), "of host time per iteration");
  ASSERT_EQ(v.top_ops.size(), 2u);
  EXPECT_DOUBLE_EQ(v.top_ops[0].share, 0.25);
  EXPECT_TRUE(v.top_ops[0].flops_known);
  EXPECT_FALSE(v.top_ops[1].flops_known);  // no formula, nothing counted below: unknown, not 0
  EXPECT_EQ(make_report_view(s, 1).top_ops.size(), 1u);
}

TEST(ReportView, DeviceRunSharesAreOfDeviceTimePerIteration) {
  RunSummary s = host_summary();
  s.has_kernels = true;
  s.modules[0].gpu_time.mean = 80;
  s.modules[0].gpu_time.p50 = 80;
  s.iteration_gpu_time = s.modules[0].gpu_time;
  ReportView v = make_report_view(s, 15);
  ASSERT_EQ(v.clock, Clock::kDevice);
  EXPECT_EQ(v.op_share_of, ShareOf::kDeviceTimePerIteration);
  EXPECT_DOUBLE_EQ(v.top_ops[0].share, 0.5);  // 40 of 80 ns of device time, not of host time
}

TEST(ReportView, EveryOpHasAFormulaOnlyWhenNoneIsMissing) {
  RunSummary s = host_summary();
  EXPECT_EQ(make_report_view(s, 0).coverage.sentence, "every op has a FLOPs formula");
  // 25 ops without a formula but no gap (their work is counted inside them): never "every op has a formula".
  s.ops_total = 24378;
  s.ops_with_formula = 24353;
  CoverageView c = make_report_view(s, 0).coverage;
  EXPECT_FALSE(c.every_op_has_formula);
  EXPECT_TRUE(c.no_gap);
  EXPECT_EQ(c.count, "24353 of 24378 ops have a formula or sit inside one (99.9%)");
  EXPECT_EQ(
      c.sentence,
      "no coverage gap: the 25 ops without a formula have their work counted by ops inside them, or are "
      "communication (no FLOPs by convention)");
  s.coverage_gaps.push_back({});
  c = make_report_view(s, 0).coverage;
  EXPECT_FALSE(c.no_gap);
  EXPECT_NE(c.sentence.find("unknown, not zero"), std::string::npos);
}

}  // namespace
}  // namespace flopscope
