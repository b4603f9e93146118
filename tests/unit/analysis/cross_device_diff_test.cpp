// The diff of one model on two devices (H100 vs MI300X, one iteration each): op signatures ranked by
// |time delta|, a single-sample time status, and the category table, from the core.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <string>

#include "analyzer/analysis/diff_analysis.h"
#include "analyzer/diff/diff_cells.h"

namespace flopscope {
namespace {

const std::string kH100 =
    FLOPSCOPE_SOURCE_DIR "/tests/data/kineto/tracelens__h100__gaunernst_bert-small-uncased__1016001.json.gz";
const std::string kMi300 =
    FLOPSCOPE_SOURCE_DIR "/tests/data/kineto/tracelens__mi300__gaunernst_bert-small-uncased__1016001.json.gz";

RunDiff cross_device_diff() {
  AnalysisNeeds needs;
  needs.totals_only = true;
  auto a = RunAnalysis::open(kH100, needs);
  auto b = RunAnalysis::open(kMi300, needs);
  EXPECT_TRUE(a.ok() && b.ok());
  return analyze_diff(*a, *b, {}).diff;
}

TEST(CrossDeviceDiff, OpsRankedByTimeDeltaWithASingleSampleStatus) {
  const RunDiff d = cross_device_diff();
  ASSERT_TRUE(d.gpu_time);
  EXPECT_EQ(d.time_status, TimeStatus::kSingleSample);
  EXPECT_NE(d.sentence.text().find("single sample, no interval"), std::string::npos) << d.sentence.text();
  // Ranked rows first, by |P50 B - P50 A| (an absent side counts 0), largest first.
  bool ranked = true;
  double last = INFINITY;
  for (const OpDiff& o : d.ops) {
    if (!ranked_op(o)) {
      ranked = false;
      continue;
    }
    ASSERT_TRUE(ranked) << o.name << ": a ranked row after an unranked one";
    const double dt = std::fabs(o.b.time.p50 - o.a.time.p50);
    EXPECT_LE(dt, last) << o.name;
    last = dt;
  }
  // The mover: layer 0's flash attention, 10.1 µs -> 32.1 µs of device time on MI300X (the four layers
  // together +76.2 µs); its delta is shown, labelled.
  const OpDiff& top = d.ops.front();
  EXPECT_EQ(top.name, "aten::_flash_attention_forward");
  EXPECT_EQ(top.module_path, "BertModel.BertEncoder.BertLayer_0.BertAttention.BertSdpaSelfAttention");
  EXPECT_EQ(top.category, OpCategory::kAttention);
  EXPECT_EQ(top.time_status, TimeStatus::kSingleSample);
  EXPECT_EQ(time_delta_text(top.time_diff, top.time_status, true), "+22 µs (single sample)");
  // No aten::empty (no time, FLOPs or bytes on either side) is ranked.
  for (const OpDiff& o : d.ops) {
    if (o.name == "aten::empty") {
      EXPECT_FALSE(ranked_op(o)) << o.module_path;
    }
  }
}

TEST(CrossDeviceDiff, CategoryTableAddsUpToEachSidesDeviceTime) {
  const RunDiff d = cross_device_diff();
  const CategorySummary& c = d.categories;
  ASSERT_TRUE(c.timed);
  // One iteration: the mean is the iteration's device time, all kernel time.
  EXPECT_DOUBLE_EQ(c.time_a, d.a.time.p50);
  EXPECT_DOUBLE_EQ(c.time_b, d.b.time.p50);
  double share_a = 0, share_b = 0, flops_a = 0, flops_b = 0;
  std::map<OpCategory, const CategoryDiff*> by;
  for (const CategoryDiff& r : c.rows) {
    share_a += r.share_a;
    share_b += r.share_b;
    flops_a += r.flops_a;
    flops_b += r.flops_b;
    by[r.category] = &r;
  }
  EXPECT_NEAR(share_a, 1.0, 1e-12);
  EXPECT_NEAR(share_b, 1.0, 1e-12);
  EXPECT_NEAR(flops_a, d.a.flops, 1e-6 * d.a.flops);
  EXPECT_NEAR(flops_b, d.b.flops, 1e-6 * d.b.flops);
  // Attention is what MI300X spends more on; GEMM is faster there.
  EXPECT_GT(by[OpCategory::kAttention]->time_b, by[OpCategory::kAttention]->time_a);
  EXPECT_LT(by[OpCategory::kGemm]->time_b, by[OpCategory::kGemm]->time_a);
  EXPECT_GT(by[OpCategory::kGemm]->flops_a, 0.5 * d.a.flops);
}

// aten::addmm runs inside aten::linear, which counts the GEMM's FLOPs: the addmm rows count none toward
// the totals but show their work labelled as nested (a bare "0 FLOPs" read as a bug), and the op rows' own
// FLOPs still add up to the run's total, so nothing is counted twice.
TEST(CrossDeviceDiff, NestedOpsShowTheirFlopsLabelledAndCountOnce) {
  const RunDiff d = cross_device_diff();
  int addmm = 0;
  double own_a = 0, nested_a = 0;
  for (const OpDiff& o : d.ops) {
    if (!o.a.present) continue;
    own_a += o.a.flops;
    nested_a += o.a.nested_flops;
    if (o.name != "aten::addmm") continue;
    ++addmm;
    EXPECT_EQ(o.a.flops, 0) << o.module_path;
    EXPECT_GT(o.a.nested_flops, 0) << o.module_path;
    const std::string cell = side_flops_text(o.a);
    EXPECT_TRUE(cell.ends_with("FLOPs nested")) << o.module_path << ": " << cell;
    // The linear above it in the same module counts the same GEMM (plus its bias).
    auto linear = std::find_if(d.ops.begin(), d.ops.end(), [&](const OpDiff& l) {
      return l.name == "aten::linear" && l.module_path == o.module_path && l.a.present;
    });
    ASSERT_NE(linear, d.ops.end()) << o.module_path;
    EXPECT_NEAR(linear->a.flops, o.a.nested_flops, 0.01 * linear->a.flops) << o.module_path;
  }
  EXPECT_GT(addmm, 0);
  EXPECT_NEAR(own_a, d.a.flops, 1e-9 * d.a.flops);
  EXPECT_GT(nested_a, 0.5 * d.a.flops);  // GEMMs are most of BERT's work: all of it nested under linear
}

// Kernels no op launched are summed apart, not ranked; ops with no cost on either side are not ranked.
TEST(CrossDeviceDiff, OrphanKernelsAndZeroCostOpsAreNotRanked) {
  auto run = [](std::int64_t gemm_ns, const char* orphan) {
    RunData r;
    r.info.iterations = 1;
    r.info.device = "gpu";
    r.modules = {{0, kNoId, "", "Net"}, {1, 0, "fc", "Linear"}};
    OpRecord mm;
    mm.id = 0;
    mm.name = "aten::addmm";
    mm.module_id = 1;
    mm.duration_ns = 100;
    mm.flops = 1000;
    mm.flops_source = FlopsSource::kFormula;
    OpRecord empty = mm;
    empty.id = 1;
    empty.sequence = 1;
    empty.name = "aten::empty";
    empty.flops = 0;
    empty.duration_ns = 0;
    r.ops = {mm, empty};
    KernelRecord k;
    k.name = "gemm";
    k.op_id = 0;
    k.module_id = 1;
    k.start_ns = 0;
    k.duration_ns = gemm_ns;
    KernelRecord o = k;
    o.name = orphan;
    o.op_id = kNoId;
    o.module_id = kNoId;
    o.start_ns = 5000;
    o.duration_ns = 900;  // larger than the GEMM's change: it would top a list of all rows
    r.kernels = {k, o};
    return r;
  };
  const RunDiff d = analyze_diff(RunAnalysis::of(run(400, "Memcpy HtoD"), "a"),
                                 RunAnalysis::of(run(300, "Memset (Device)"), "b"), {})
                        .diff;
  ASSERT_TRUE(d.gpu_time);
  ASSERT_FALSE(d.ops.empty());
  EXPECT_EQ(d.ops.front().name, "aten::addmm");
  EXPECT_DOUBLE_EQ(d.ops.front().b.time.p50 - d.ops.front().a.time.p50, -100);
  int ranked = 0;
  for (const OpDiff& o : d.ops) ranked += ranked_op(o) ? 1 : 0;
  EXPECT_EQ(ranked, 1);
  EXPECT_EQ(d.categories.orphan_signatures_a, 1);
  EXPECT_EQ(d.categories.orphan_signatures_b, 1);
  EXPECT_DOUBLE_EQ(d.categories.orphan_time_a, 900);
  // Copies and memsets of no op are memory; the GEMM's kernel time is GEMM.
  const CategoryDiff& memory = d.categories.rows[static_cast<std::size_t>(OpCategory::kMemory)];
  EXPECT_DOUBLE_EQ(memory.time_a, 900);
  EXPECT_DOUBLE_EQ(memory.share_a, 900.0 / 1300.0);
  EXPECT_DOUBLE_EQ(d.categories.rows[0].time_b, 300);
}

TEST(OpCategory, FromTheRegistryFamiliesAndKernelKinds) {
  EXPECT_EQ(op_category("aten::addmm"), OpCategory::kGemm);
  EXPECT_EQ(op_category("aten::convolution"), OpCategory::kGemm);
  EXPECT_EQ(op_category("aten::_flash_attention_forward"), OpCategory::kAttention);
  EXPECT_EQ(op_category("aten::native_layer_norm"), OpCategory::kNorm);
  EXPECT_EQ(op_category("aten::gelu"), OpCategory::kElementwise);
  EXPECT_EQ(op_category("aten::softmax"), OpCategory::kElementwise);
  EXPECT_EQ(op_category("aten::copy_"), OpCategory::kMemory);
  EXPECT_EQ(op_category("aten::empty"), OpCategory::kMemory);
  EXPECT_EQ(op_category("record_param_comms"), OpCategory::kCommunication);
  EXPECT_EQ(op_category("c10d::allreduce_"), OpCategory::kCommunication);
  EXPECT_EQ(op_category("kernel ncclDevKernel_AllReduce_Sum_bf16_RING_LL"), OpCategory::kCommunication);
  EXPECT_EQ(op_category("kernel Memcpy DtoH (Device -> Pinned)"), OpCategory::kMemory);
  EXPECT_EQ(op_category("kernel void my_custom_kernel<float>()"), OpCategory::kOther);
  EXPECT_EQ(op_category("vllm::moe_forward"), OpCategory::kOther);
  EXPECT_STREQ(to_string(OpCategory::kGemm), "GEMM");
}

}  // namespace
}  // namespace flopscope
