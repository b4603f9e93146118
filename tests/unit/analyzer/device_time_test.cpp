// Coverage by time, lower bounds, orphans, device time per op, communication and the timeline facts.
#include <gtest/gtest.h>

#include "analyzer/clock.h"
#include "analyzer/fact_rows.h"
#include "analyzer/kernel_table.h"
#include "analyzer/op_groups.h"
#include "analyzer/peaks.h"
#include "analyzer/summary.h"
#include "analyzer/timeline.h"
#include "analyzer/work_text.h"

namespace flopscope {
namespace {

OpRecord op(Id id, const char* name, Id module, Id parent, std::int64_t start, std::int64_t dur, double flops,
            FlopsSource src) {
  OpRecord o;
  o.id = id;
  o.sequence = id;
  o.name = name;
  o.module_id = module;
  o.parent_op_id = parent;
  o.depth = parent == kNoId ? 0 : 1;
  o.start_ns = start;
  o.duration_ns = dur;
  o.flops = flops;
  o.flops_source = src;
  return o;
}

KernelRecord kernel(const char* name, Id op_id, Id module, std::int64_t start, std::int64_t dur,
                    int stream = 7, int iteration = 0) {
  KernelRecord k;
  k.name = name;
  k.op_id = op_id;
  k.module_id = module;
  k.start_ns = start;
  k.duration_ns = dur;
  k.stream = stream;
  k.iteration = iteration;
  return k;
}

// A linear (known) in "dense", a custom MoE op in "moe" whose only child is a zero-FLOP aten::empty and
// which launches its own kernel, an NCCL all-reduce, and an orphan kernel from before the window.
RunData serving_like_run() {
  RunData r;
  r.info.device = "NVIDIA H100 80GB HBM3";
  r.modules = {{0, kNoId, "", "Model"}, {1, 0, "dense", "Linear"}, {2, 0, "moe", "FusedMoE"}};
  r.ops.push_back(op(0, "aten::linear", 1, kNoId, 0, 100, 1000, FlopsSource::kFormula));
  r.ops.push_back(op(1, "vllm::moe_forward", 2, kNoId, 100, 300, 0, FlopsSource::kNone));
  r.ops.push_back(op(2, "aten::empty", 2, 1, 110, 5, 0, FlopsSource::kFormula));
  r.ops.push_back(op(3, "c10d::allreduce_", 0, kNoId, 400, 50, 0, FlopsSource::kNone));
  r.kernels.push_back(kernel("gemm", 0, 1, 1000, 20));
  r.kernels.push_back(kernel("fused_moe_kernel", 1, 2, 1020, 60));
  r.kernels.push_back(kernel("ncclDevKernel_AllReduce_Sum_bf16_RING_LL", 3, 0, 1100, 20, 9));
  r.kernels.push_back(kernel("before_window", kNoId, kNoId, 0, 500, 7, -1));
  return r;
}

TEST(DeviceTime, ZeroFlopChildrenDoNotCoverACustomOp) {
  RunSummary s = summarize(serving_like_run());
  ASSERT_FALSE(s.coverage_gaps.empty());
  EXPECT_EQ(s.coverage_gaps[0].name, "vllm::moe_forward");  // largest unknown device time first
  EXPECT_DOUBLE_EQ(s.coverage_gaps[0].device_time_ns, 60);
  EXPECT_DOUBLE_EQ(s.coverage_gaps[0].share_of_device_time, 60.0 / 80);
  // Of 80 ns of compute kernels (the all-reduce is communication: no FLOPs by convention), only the GEMM's
  // 20 ns have known FLOPs.
  EXPECT_DOUBLE_EQ(s.coverage.known_device_share, 20.0 / 80);
  EXPECT_FALSE(s.coverage.flops_complete);
  const auto& moe = s.modules[static_cast<std::size_t>(s.find("moe"))];
  EXPECT_FALSE(moe.flops_complete);
  EXPECT_DOUBLE_EQ(moe.unknown_time_share, 1.0);
  EXPECT_TRUE(s.modules[static_cast<std::size_t>(s.find("dense"))].flops_complete);
  // Host: the linear (100 ns) and the empty (5 ns) of 450 ns of outermost ops.
  EXPECT_DOUBLE_EQ(s.coverage.known_host_share, 105.0 / 450);
}

// The clock a GPU run is read on is the device's: module times, self times and shares are kernel time;
// host op time stays available under its own name. A run without kernels reads host time.
TEST(DeviceTime, GpuRunsAreReadOnTheDeviceClock) {
  RunData run = serving_like_run();
  RunSummary s = summarize(run);
  ASSERT_EQ(run_clock(s), Clock::kDevice);
  EXPECT_STREQ(to_string(run_clock(s)), "device");
  const auto& root = s.modules[0];
  const auto& moe = s.modules[static_cast<std::size_t>(s.find("moe"))];
  EXPECT_DOUBLE_EQ(inclusive_time(moe, Clock::kDevice).p50, 60);
  EXPECT_DOUBLE_EQ(inclusive_time(moe, Clock::kHost).p50, 300);
  // The root's own kernel is the all-reduce (20 ns); its subtree adds the GEMM and the MoE kernel.
  EXPECT_DOUBLE_EQ(self_time(root, Clock::kDevice).p50, 20);
  EXPECT_DOUBLE_EQ(inclusive_time(root, Clock::kDevice).p50, 100);
  EXPECT_DOUBLE_EQ(iteration_time(s, Clock::kDevice).p50, 100);
  EXPECT_DOUBLE_EQ(iteration_time(s, Clock::kHost).p50, 450);
  EXPECT_DOUBLE_EQ(moe.share_time, 60.0 / 100);  // of device time, not 300/450 of host time
  run.kernels.clear();
  RunSummary cpu = summarize(run);
  EXPECT_EQ(run_clock(cpu), Clock::kHost);
  EXPECT_DOUBLE_EQ(cpu.modules[static_cast<std::size_t>(cpu.find("moe"))].share_time, 300.0 / 450);
}

TEST(DeviceTime, OrphanKernelsAreKeptApartFromIterations) {
  RunSummary s = summarize(serving_like_run());
  EXPECT_EQ(s.iterations, 1);
  EXPECT_EQ(s.orphans.kernels, 1);
  EXPECT_DOUBLE_EQ(s.orphans.time_ns, 500);
  EXPECT_DOUBLE_EQ(s.iteration_gpu_time.p50, 100);  // not 600
  EXPECT_EQ(s.attribution.kernels, 4);              // still counted as records
  // ... but never in the denominator of the attribution line `import` and `report` print.
  const WindowKernels w = window_kernels(s.attribution.kernels, s.attribution.kernel_time_ns,
                                         s.orphans.kernels, s.orphans.time_ns);
  EXPECT_EQ(w.kernels, 3);
  EXPECT_DOUBLE_EQ(w.time_ns, 100);
  EXPECT_EQ(orphans_apart_text(w.orphans),
            "; 1 orphan kernel (before the window or from an untraced thread) apart");
  EXPECT_EQ(orphans_apart_text(0), "");
}

TEST(DeviceTime, CommunicationBesideCompute) {
  RunSummary s = summarize(serving_like_run());
  EXPECT_DOUBLE_EQ(s.modules[0].comm_time_ns, 20);
  EXPECT_DOUBLE_EQ(s.modules[static_cast<std::size_t>(s.find("moe"))].comm_time_ns, 0);
  EXPECT_TRUE(is_communication_kernel("ncclDevKernel_AllGather_RING_LL"));
  EXPECT_TRUE(is_communication_kernel("void vllm::cross_device_reduce_1stage<__nv_bfloat16, 8>(...)"));
  EXPECT_TRUE(is_communication_kernel("one_shot_all_reduce_kernel"));
  EXPECT_FALSE(is_communication_kernel("ampere_bf16_s16816gemm_bf16_128x128_ldg8_f2f_tn"));
}

TEST(DeviceTime, ACommunicationOpIsNoGapAndMakesNoLowerBound) {
  // A tensor-parallel block: a linear (known) and an all-reduce whose only kernel is NCCL's. Communication
  // does no FLOPs by convention: the block's FLOPs are exact, not ">=", and the all-reduce is no gap.
  RunData r;
  r.info.device = "NVIDIA H100 80GB HBM3";
  r.modules = {{0, kNoId, "", "Model"}, {1, 0, "tp", "RowParallelLinear"}};
  r.ops.push_back(op(0, "aten::linear", 1, kNoId, 0, 100, 1000, FlopsSource::kFormula));
  r.ops.push_back(op(1, "c10d::allreduce_", 1, kNoId, 100, 50, 0, FlopsSource::kNone));
  r.kernels.push_back(kernel("gemm", 0, 1, 1000, 20));
  r.kernels.push_back(kernel("ncclDevKernel_AllReduce_Sum_bf16_RING_LL", 1, 1, 1030, 20, 9));
  RunSummary s = summarize(r);
  const auto& tp = s.modules[static_cast<std::size_t>(s.find("tp"))];
  EXPECT_TRUE(tp.flops_complete);
  EXPECT_TRUE(s.coverage.flops_complete);
  for (const auto& g : s.coverage_gaps) EXPECT_NE(g.name, "c10d::allreduce_");
  // An op that launched a compute kernel as well stays a gap.
  r.kernels.push_back(kernel("pack_kernel", 1, 1, 1060, 5));
  s = summarize(r);
  EXPECT_FALSE(s.modules[static_cast<std::size_t>(s.find("tp"))].flops_complete);
}

TEST(DeviceTime, ACollectiveByNameIsNoGapWithoutItsKernels) {
  // record_param_comms as the HTA traces hold it: no kernel under it (the NCCL kernel hangs elsewhere), and
  // a CPU run's c10d op, which launches none. Communication by name: the module's FLOPs stay exact.
  for (const bool gpu : {true, false}) {
    RunData r;
    r.info.device = gpu ? "NVIDIA H100 80GB HBM3" : "cpu";
    r.modules = {{0, kNoId, "", "Model"}, {1, 0, "tp", "RowParallelLinear"}};
    r.ops.push_back(op(0, "aten::linear", 1, kNoId, 0, 100, 1000, FlopsSource::kFormula));
    r.ops.push_back(
        op(1, gpu ? "record_param_comms" : "c10d::allreduce_", 1, kNoId, 100, 50, 0, FlopsSource::kNone));
    if (gpu) r.kernels.push_back(kernel("gemm", 0, 1, 1000, 20));
    RunSummary s = summarize(r);
    EXPECT_TRUE(s.modules[static_cast<std::size_t>(s.find("tp"))].flops_complete) << gpu;
    EXPECT_TRUE(s.coverage_gaps.empty()) << gpu;
    // Any other op without a formula is still a gap and makes the module's FLOPs a lower bound.
    r.ops[1].name = "vllm::moe_forward";
    s = summarize(r);
    EXPECT_FALSE(s.modules[static_cast<std::size_t>(s.find("tp"))].flops_complete) << gpu;
  }
}

TEST(DeviceTime, CommunicationKernelNamesMatchInAnyCaseWithinTheirFirst512Bytes) {
  EXPECT_TRUE(is_communication_kernel("MULTIMEM_ALL_REDUCE"));
  EXPECT_TRUE(is_communication_kernel("kernel_SendRecv"));
  EXPECT_TRUE(is_communication_kernel("ReduceScatter"));
  EXPECT_FALSE(is_communication_kernel("sendrec"));
  EXPECT_FALSE(is_communication_kernel(""));
  EXPECT_FALSE(is_communication_kernel("ALL_REDUC"));
  // Only the first 512 bytes are looked at: a pattern that ends at byte 512 counts, one past it does not.
  EXPECT_TRUE(is_communication_kernel(std::string(508, 'x') + "NCCL"));
  EXPECT_FALSE(is_communication_kernel(std::string(509, 'x') + "nccl"));
}

TEST(DeviceTime, TopOpsAndGroupsCarryDeviceTime) {
  RunData r = serving_like_run();
  RunSummary s = summarize(r);
  ASSERT_FALSE(s.top_ops.empty());
  EXPECT_EQ(s.top_ops[0].name, "vllm::moe_forward");  // by device time
  EXPECT_DOUBLE_EQ(s.top_ops[0].device_time_ns, 60);
  EXPECT_DOUBLE_EQ(s.top_ops[0].time_ns, 300);
  auto groups = group_ops(r, 1);
  ASSERT_EQ(groups[0].name, "aten::linear");
  EXPECT_DOUBLE_EQ(groups[0].device_time_ns, 20);
  EXPECT_DOUBLE_EQ(groups[0].time_ns, 100);
}

// Achieved FLOP/s and bytes/s, intensity and the roofline bound per module, top op and op group, over their
// own device time (the GEMM: 1000 FLOPs and 500 bytes in 20 ns on an H100).
TEST(DeviceTime, RatesAndBoundPerModuleOpAndGroup) {
  RunData r = serving_like_run();
  r.ops[0].bytes_read = 400;
  r.ops[0].bytes_written = 100;
  RunSummary s = summarize(r);
  ASSERT_TRUE(s.peak.has_value());
  const double attainable = 2.0 * s.peak->bytes_per_s;  // intensity 2 FLOP/B: far below the ridge
  auto check = [&](const Roofline& x, const std::string& what) {
    EXPECT_DOUBLE_EQ(x.achieved_flops_per_s, 1000 / 20e-9) << what;
    EXPECT_DOUBLE_EQ(x.achieved_bytes_per_s, 500 / 20e-9) << what;
    EXPECT_DOUBLE_EQ(x.intensity, 2) << what;
    EXPECT_TRUE(x.memory_bound) << what;
    EXPECT_DOUBLE_EQ(x.attainable_flops_per_s, attainable) << what;
    EXPECT_DOUBLE_EQ(x.fraction_of_attainable, (1000 / 20e-9) / attainable) << what;
  };
  check(s.modules[static_cast<std::size_t>(s.find("dense"))].rates, "module");
  const OpSummary* linear = nullptr;
  for (const auto& op : s.top_ops) {
    if (op.name == "aten::linear") linear = &op;
  }
  ASSERT_NE(linear, nullptr);
  check(linear->rates, "top op");
  auto groups = group_ops(r, 1, s.peak);
  ASSERT_EQ(groups[0].name, "aten::linear");
  check(groups[0].rates, "op group");
  // No peak (a device the table does not know): rates without a bound. No device time: nothing.
  r.info.device = "Some Future GPU";
  RunSummary unknown = summarize(r);
  const auto& dense = unknown.modules[static_cast<std::size_t>(unknown.find("dense"))].rates;
  EXPECT_DOUBLE_EQ(dense.achieved_flops_per_s, 1000 / 20e-9);
  EXPECT_DOUBLE_EQ(dense.attainable_flops_per_s, 0);
  EXPECT_DOUBLE_EQ(device_rates(1000, 500, 0, s.peak).achieved_flops_per_s, 0);
  // No bytes counted (only FLOPs known, e.g. a lower bound over unknown work): no intensity, no bound.
  EXPECT_DOUBLE_EQ(device_rates(1000, 0, 20, s.peak).attainable_flops_per_s, 0);
  EXPECT_DOUBLE_EQ(device_rates(1000, 0, 20, s.peak).achieved_flops_per_s, 1000 / 20e-9);
}

TEST(DeviceTime, TimelineBusyIsTheUnionNotTheSum) {
  std::vector<KernelRecord> ks = {kernel("a", kNoId, kNoId, 0, 100, 1), kernel("b", kNoId, kNoId, 50, 100, 2),
                                  kernel("c", kNoId, kNoId, 300, 100, 1),
                                  kernel("ncclKernel_AllReduce", kNoId, kNoId, 320, 40, 3)};
  FactRows rows;
  rows.add_kernels(ks);  // as a run's kernels reach the summary: each given its category
  Timeline t = timeline_facts(rows.kernels());
  ASSERT_EQ(t.devices.size(), 1U);
  const auto& d = t.devices[0];
  EXPECT_DOUBLE_EQ(d.span_ns, 400);
  EXPECT_DOUBLE_EQ(d.sum_ns, 340);
  EXPECT_DOUBLE_EQ(d.busy_ns, 250);  // [0,150) + [300,400)
  EXPECT_DOUBLE_EQ(d.idle_ns, 150);
  EXPECT_DOUBLE_EQ(d.overlap_ns, 90);
  EXPECT_DOUBLE_EQ(d.communication_busy_ns, 40);
  EXPECT_DOUBLE_EQ(d.compute_comm_overlap_ns, 40);
  EXPECT_EQ(d.gaps, 1);
  EXPECT_DOUBLE_EQ(d.gap_max_ns, 150);
  ASSERT_EQ(t.streams.size(), 3U);
  EXPECT_DOUBLE_EQ(t.streams[0].busy_ns, 200);
  EXPECT_DOUBLE_EQ(t.streams[0].idle_ns, 200);
}

TEST(DeviceTime, RooflineFromThePeakTable) {
  auto h100 = peak_for_device("NVIDIA H100 80GB HBM3");
  ASSERT_TRUE(h100.has_value());
  EXPECT_DOUBLE_EQ(h100->bytes_per_s, 3.35e12);
  EXPECT_EQ(peak_for_device("AMD Instinct MI300X")->name, "MI300X");
  EXPECT_EQ(peak_for_device("NVIDIA A100-SXM4-40GB")->name, "A100 40GB");
  EXPECT_FALSE(peak_for_device("cpu").has_value());
  // 1 GFLOP over 1 MB in 10 us: 1000 FLOP/B, above H100's ridge (~295): compute-bound.
  Roofline r = roofline(1e9, 1e6, 1e4, *h100);
  EXPECT_DOUBLE_EQ(r.achieved_flops_per_s, 1e14);
  EXPECT_FALSE(r.memory_bound);
  EXPECT_DOUBLE_EQ(r.attainable_flops_per_s, h100->flops_per_s);
  auto user = parse_peak("100e12:2e12");
  ASSERT_TRUE(user.ok());
  EXPECT_TRUE(roofline(1e6, 1e6, 1e3, *user).memory_bound);
  EXPECT_FALSE(parse_peak("fast").ok());
  EXPECT_FALSE(parse_peak("1e12:-3").ok());
}

TEST(DeviceTime, CpuGapUnderAZeroFlopChild) {
  // CPU path: grid_sampler_2d has no formula; its aten::empty child (a formula, 0 FLOPs) must not cover it.
  RunData r;
  r.modules = {{0, kNoId, "", "Net"}};
  r.ops.push_back(op(0, "aten::conv2d", 0, kNoId, 0, 100, 500, FlopsSource::kFormula));
  r.ops.push_back(op(1, "aten::grid_sampler_2d", 0, kNoId, 100, 300, 0, FlopsSource::kNone));
  r.ops.push_back(op(2, "aten::empty", 0, 1, 110, 5, 0, FlopsSource::kFormula));
  RunSummary s = summarize(r);
  ASSERT_EQ(s.coverage_gaps.size(), 1U);
  EXPECT_EQ(s.coverage_gaps[0].name, "aten::grid_sampler_2d");
  EXPECT_FALSE(s.coverage.flops_complete);
  EXPECT_FALSE(s.modules[0].flops_complete);
  EXPECT_DOUBLE_EQ(s.modules[0].unknown_time_share, 300.0 / 400);
  EXPECT_DOUBLE_EQ(s.coverage.known_host_share, 105.0 / 400);
}

TEST(DeviceTime, KernelTableSharesTheOpsWorkAmongItsKernels) {
  RunData r = serving_like_run();
  r.kernels.push_back(kernel("gemm", 0, 1, 2000, 20));  // a second launch of the linear's GEMM
  r.kernels.back().grid = {4, 1, 1};
  auto rows = kernel_table(r);
  ASSERT_EQ(rows.size(), 4U);
  EXPECT_EQ(rows[0].name, "before_window");  // by device time, orphans included
  const KernelRow* gemm = nullptr;
  for (const auto& row : rows) {
    if (row.name == "gemm") gemm = &row;
  }
  ASSERT_NE(gemm, nullptr);
  EXPECT_EQ(gemm->count, 2);
  EXPECT_DOUBLE_EQ(gemm->flops, 1000);  // the linear's 1000 FLOPs, half per kernel
  EXPECT_TRUE(gemm->launch_config_varies);
  EXPECT_EQ(gemm->module_path, "dense");
  EXPECT_EQ(rows[1].name, "fused_moe_kernel");
  EXPECT_EQ(rows[1].unknown_count, 1);
}

}  // namespace
}  // namespace flopscope
