// The counter pass with a fake range profiler: ranges join launches by per-context ordinal, names are
// checked, FLOPs follow add + mul + 2*fma, and refused counters give an actionable error.
#include <gtest/gtest.h>

#include "activity_buffer.h"
#include "callbacks.h"
#include "collector/cupti/counter_join.h"
#include "collector/cupti/metric_roles.h"
#include "collector/cupti/tracer.h"
#include "fake_cupti.h"
#include "tests/unit/cupti/asan_skip.h"

namespace flopscope::gpu {
namespace {

using testing::ActivityBuffer;
using testing::FakeCupti;
using testing::kernel_record;

// Counted launches come through the driver API here (the tracer treats both domains alike).
void launch(Tracer& t, std::uint32_t correlation, const char* symbol) {
  testing::Driver(t).launch(correlation, symbol, /*runtime=*/false);
}

const std::vector<std::string> kMetrics = {"smsp__sass_thread_inst_executed_op_fadd_pred_on.sum",
                                           "smsp__sass_thread_inst_executed_op_ffma_pred_on.sum",
                                           "smsp__sass_thread_inst_executed_op_hfma_pred_on.sum",
                                           "sm__ops_path_tensor_op_hgmma_src_bf16_dst_fp32.sum",
                                           "dram__bytes_read.sum",
                                           "dram__bytes_write.sum"};

TEST(Counters, RangesJoinLaunchesByOrdinalAndNamesAreChecked) {
  FLOPSCOPE_SKIP_UNDER_ASAN();  // the counter pass plans metrics with the real host library
  FakeCupti fake;
  TracerOptions options;
  options.metrics = kMetrics;
  Tracer tracer(fake, options);
  ASSERT_TRUE(tracer.start().ok());
  launch(tracer, 30, "_Z3fmav");
  launch(tracer, 31, "gemm()");  // demangled in the callback, mangled in the record: same kernel
  launch(tracer, 32, "_Z4copyv");
  fake.launches_in_session = 3;
  fake.range_values = {{10, 1000, 0, 0, 4096, 0}, {0, 0, 5, 1e6, 3e6, 1e6}, {0, 0, 0, 0, 777, 777}};

  ActivityBuffer buf;
  buf.add(kernel_record("_Z3fmav", 30, 100, 200));
  buf.add(kernel_record("_Z4gemmv", 31, 300, 400));
  buf.add(kernel_record("_Z9not_copyv", 32, 500, 600));  // the trace disagrees with launch 3
  tracer.handle_buffer(buf.data(), buf.size());
  tracer.stop();
  EXPECT_EQ(fake.last_range, CUPTI_AutoRange);
  EXPECT_EQ(fake.last_replay, CUPTI_KernelReplay);
  EXPECT_EQ(fake.decodes, 1);
  RunData run = tracer.take_run({});
  ASSERT_EQ(run.kernels.size(), 3u);
  EXPECT_EQ(run.kernels[0].name, "fma()");  // joined on the mangled name, stored demangled
  const KernelRecord& fma = run.kernels[0];
  EXPECT_TRUE(fma.has_counters);
  EXPECT_DOUBLE_EQ(fma.flops_fp32, 10 + 2 * 1000);
  EXPECT_DOUBLE_EQ(fma.dram_bytes_read, 4096);
  const KernelRecord& gemm = run.kernels[1];
  EXPECT_DOUBLE_EQ(gemm.flops_fp16, 10);
  EXPECT_DOUBLE_EQ(gemm.tensor_ops, 1e6);
  EXPECT_DOUBLE_EQ(gemm.dram_bytes_written, 1e6);
  EXPECT_FALSE(run.kernels[2].has_counters);
  bool mismatch = false;
  for (const auto& q : run.quality)
    mismatch |= q.code == QualityCode::counter_range_name_mismatch && q.count == 1;
  EXPECT_TRUE(mismatch);
}

TEST(Counters, DecodesEveryFullSessionAndKeepsOrdinalsRunning) {
  FLOPSCOPE_SKIP_UNDER_ASAN();  // the counter pass plans metrics with the real host library
  FakeCupti fake;
  TracerOptions options;
  options.metrics = {"dram__bytes_read.sum"};
  options.ranges_per_session = 2;
  Tracer tracer(fake, options);
  ASSERT_TRUE(tracer.start().ok());
  fake.launches_in_session = 2;
  fake.range_values = {{1}, {2}, {3}, {4}};
  launch(tracer, 1, "a");
  launch(tracer, 2, "b");
  launch(tracer, 3, "c");  // the session is full: decode ranges 0-1, restart
  launch(tracer, 4, "d");
  tracer.stop();  // decodes ranges 2-3
  EXPECT_EQ(fake.decodes, 2);
  EXPECT_EQ(fake.starts, 2);
  ActivityBuffer buf;
  for (std::uint32_t i = 1; i <= 4; ++i) {
    static const char* names[] = {"a", "b", "c", "d"};
    buf.add(kernel_record(names[i - 1], i, i * 100, i * 100 + 50));
  }
  tracer.handle_buffer(buf.data(), buf.size());
  RunData run = tracer.take_run({});
  ASSERT_EQ(run.kernels.size(), 4u);
  for (std::size_t i = 0; i < 4; ++i)
    EXPECT_DOUBLE_EQ(run.kernels[i].dram_bytes_read, static_cast<double>(i + 1));
}

TEST(Counters, PermissionRefusalSaysHowToFixIt) {
  FLOPSCOPE_SKIP_UNDER_ASAN();  // the counter pass plans metrics with the real host library
  FakeCupti fake;
  fake.counter_availability_result = CUPTI_ERROR_INSUFFICIENT_PRIVILEGES;
  TracerOptions options;
  options.metrics = {"dram__bytes_read.sum"};
  Tracer tracer(fake, options);
  ASSERT_TRUE(tracer.start().ok());
  launch(tracer, 1, "k");
  tracer.stop();
  Status s = tracer.counter_error();
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("ERR_NVGPUCTRPERM"), std::string::npos) << s.message();
  EXPECT_NE(s.message().find("NVreg_RestrictProfilingToAdminUsers=0"), std::string::npos);
  RunData run = tracer.take_run({});
  bool row = false;
  for (const auto& q : run.quality) row |= q.code == QualityCode::counters_not_collected;
  EXPECT_TRUE(row);
}

TEST(Counters, UnsupportedChipIsRefused) {
  FLOPSCOPE_SKIP_UNDER_ASAN();  // the counter pass plans metrics with the real host library
  FakeCupti fake;
  fake.chip = "XX999";
  TracerOptions options;
  options.metrics = {"dram__bytes_read.sum"};
  Tracer tracer(fake, options);
  ASSERT_TRUE(tracer.start().ok());
  launch(tracer, 1, "k");
  tracer.stop();
  Status s = tracer.counter_error();
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("unsupported chip 'XX999'"), std::string::npos) << s.message();
}

TEST(CounterJoin, CountsRangesAndLaunchesThatDoNotPair) {
  std::vector<KernelRecord> kernels(1);
  kernels[0].name = "k";
  kernels[0].correlation = 7;
  std::vector<CountedLaunch> launches = {{1, 0, "k", {7}}, {1, 1, "lost", {8}}};
  std::vector<CounterRange> ranges = {{1, 0, {5}}, {1, 5, {6}}};
  auto r = join_counters({"dram__bytes_write.sum"}, launches, ranges, kernels);
  EXPECT_EQ(r.joined, 1);
  EXPECT_EQ(r.range_without_launch, 1);
  EXPECT_EQ(r.launch_without_range, 1);
  EXPECT_DOUBLE_EQ(kernels[0].dram_bytes_written, 5);
  EXPECT_EQ(r.issues().size(), 2u);
}

TEST(MetricRoles, FlopRulesPerPrecision) {
  EXPECT_EQ(metric_role("smsp__sass_thread_inst_executed_op_dfma_pred_on.sum"), MetricRole::kFlopsFp64x2);
  EXPECT_EQ(metric_role("sm__sass_thread_inst_executed_op_hadd_pred_on.sum"), MetricRole::kFlopsFp16);
  EXPECT_EQ(metric_role("smsp__sass_thread_inst_executed_op_ffma_pred_on.avg"), MetricRole::kOther);
  EXPECT_EQ(metric_role("sm__ops_path_tensor_src_fp8.sum"), MetricRole::kTensorOps);
  EXPECT_EQ(metric_role("lts__t_bytes.sum"), MetricRole::kL2Bytes);
  KernelRecord k;
  apply_metric_values({"smsp__sass_thread_inst_executed_op_dadd_pred_on.sum",
                       "smsp__sass_thread_inst_executed_op_dfma_pred_on.sum"},
                      {3, 4}, k);
  EXPECT_DOUBLE_EQ(k.flops_fp64, 3 + 8);
  EXPECT_TRUE(k.has_counters);
}

}  // namespace
}  // namespace flopscope::gpu
