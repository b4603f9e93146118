// The Profiler Host API, offline, for chip GH100 (H100/H200): the real libcupti and libnvperf_host.
#include "collector/cupti/metric_plan.h"

#include <gtest/gtest.h>

#include "tests/unit/cupti/asan_skip.h"

namespace flopscope::gpu {
namespace {

// Every test here reaches the Profiler Host API (libnvperf_host).
class MetricPlan : public ::testing::Test {
 protected:
  void SetUp() override { FLOPSCOPE_SKIP_UNDER_ASAN(); }
};

TEST_F(MetricPlan, DefaultSetIsValidOnGH100AndNeedsTwoPasses) {
  auto plan = plan_metrics(real_cupti(), "GH100", default_metrics("GH100"), "", 0);
  ASSERT_TRUE(plan.ok()) << plan.status().message();
  EXPECT_EQ(plan->metrics.size(), 16u);
  EXPECT_FALSE(plan->config_image.empty());
  // SASS-patched FLOP counters cannot share a pass with hardware counters: 1 + 1.
  EXPECT_EQ(plan->passes, 2u);
  for (const auto& info : plan->info) {
    EXPECT_FALSE(info.description.empty()) << info.name;
    EXPECT_NE(info.role, MetricRole::kOther) << info.name;
  }
}

TEST_F(MetricPlan, HardwareSetIsOnePass) {
  auto plan = plan_metrics(real_cupti(), "GH100", hardware_metrics("GH100"), "", 1);
  ASSERT_TRUE(plan.ok()) << plan.status().message();
  EXPECT_EQ(plan->passes, 1u);
}

TEST_F(MetricPlan, FlopCountersAloneAreOnePass) {
  std::vector<std::string> all = default_metrics("GH100");
  std::vector<std::string> sass(all.begin(), all.begin() + 9);
  auto plan = plan_metrics(real_cupti(), "GH100", sass, "", 0);
  ASSERT_TRUE(plan.ok()) << plan.status().message();
  EXPECT_EQ(plan->passes, 1u);
}

TEST_F(MetricPlan, PassLimitIsEnforced) {
  auto plan = plan_metrics(real_cupti(), "GH100", default_metrics("GH100"), "", 1);
  ASSERT_FALSE(plan.ok());
  EXPECT_NE(plan.status().message().find("needs 2 passes"), std::string::npos) << plan.status().message();
}

TEST_F(MetricPlan, UnknownMetricIsNamed) {
  auto plan = plan_metrics(real_cupti(), "GH100", {"dram__bytes_read.sum", "dram__bogus_bytes.sum"}, "", 0);
  ASSERT_FALSE(plan.ok());
  EXPECT_EQ(plan.status().code(), StatusCode::kInvalidArgument);
  EXPECT_NE(plan.status().message().find("'dram__bogus_bytes.sum'"), std::string::npos)
      << plan.status().message();
}

TEST_F(MetricPlan, UnsupportedChipListsTheSupportedOnes) {
  auto plan = plan_metrics(real_cupti(), "NOPE1", {"dram__bytes_read.sum"}, "", 0);
  ASSERT_FALSE(plan.ok());
  EXPECT_EQ(plan.status().code(), StatusCode::kUnsupported);
  EXPECT_NE(plan.status().message().find("GH100"), std::string::npos) << plan.status().message();
}

TEST_F(MetricPlan, EmptySetNeedsNoHostObject) {
  auto plan = plan_metrics(real_cupti(), "whatever", {}, "", 0);
  ASSERT_TRUE(plan.ok());
  EXPECT_EQ(plan->passes, 0u);
}

TEST_F(MetricPlan, ParsesTheMetricsOption) {
  EXPECT_TRUE(parse_metrics_option("none", "GH100").empty());
  EXPECT_EQ(parse_metrics_option("default", "GH100"), default_metrics("GH100"));
  EXPECT_EQ(parse_metrics_option(" a.sum , b.sum,", "GH100"), (std::vector<std::string>{"a.sum", "b.sum"}));
  auto mixed = parse_metrics_option("default,lts__t_bytes.sum", "GH100");
  EXPECT_EQ(mixed.size(), default_metrics("GH100").size() + 1);
  // Chips without a validated tensor-core list get none rather than a guess.
  EXPECT_EQ(default_metrics("AD102").size(), 12u);
}

TEST_F(MetricPlan, ChipMetricListIsLarge) {
  auto names = chip_base_metrics(real_cupti(), "GH100");
  ASSERT_TRUE(names.ok()) << names.status().message();
  EXPECT_GT(names->size(), 3000u);
  EXPECT_TRUE(std::binary_search(names->begin(), names->end(), std::string("dram__bytes_read")));
}

}  // namespace
}  // namespace flopscope::gpu
