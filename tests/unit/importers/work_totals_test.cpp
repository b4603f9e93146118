// On every bundled GPU trace, the kernel table, the op totals and the module tree divide one amount of work:
// an op's FLOPs and bytes belong to its compute kernels (never to the cuBLAS workspace memset beside them),
// and what no compute kernel carries is said apart.
#include <gtest/gtest.h>

#include <cmath>

#include "analyzer/kernel_table.h"
#include "analyzer/summary.h"
#include "import_test_util.h"

namespace flopscope {
namespace {

class WorkTotals : public ::testing::TestWithParam<const char*> {};

double relative(double a, double b) {
  return std::abs(a - b) / std::max({std::abs(a), std::abs(b), 1.0});
}

TEST_P(WorkTotals, KernelTableOpsAndModulesAddUpToOneTotal) {
  auto run = testing::import_file(testing::fixture(GetParam()));
  ASSERT_TRUE(run.ok()) << run.status().message();
  const KernelWorkTotals t = kernel_work_totals(*run);
  ASSERT_GT(t.op_flops, 0);
  double table_flops = 0, table_bytes = 0;
  for (const auto& row : kernel_table(*run)) {
    table_flops += row.flops;
    if (row.category != "memcpy" && row.category != "memset") table_bytes += row.bytes;
  }
  EXPECT_LT(relative(table_flops, t.on_kernels_flops), 1e-9) << table_flops << " vs " << t.on_kernels_flops;
  EXPECT_LT(relative(table_bytes, t.on_kernels_bytes), 1e-9) << table_bytes << " vs " << t.on_kernels_bytes;
  EXPECT_LT(relative(t.on_kernels_flops + t.without_kernel_flops, t.op_flops), 1e-9);
  // Ops on a GPU trace launch their kernels: the part no compute kernel carries is small and said apart.
  EXPECT_LT(t.without_kernel_flops, 0.01 * t.op_flops) << t.ops_without_kernel << " ops without a kernel";

  // The summary's total (per iteration) and its module tree (self FLOPs, per iteration) are the same work.
  const RunSummary s = summarize(*run);
  double self = 0;
  for (const auto& m : s.modules) self += m.self.flops;
  EXPECT_LT(relative(self, s.total.flops), 1e-9) << self << " vs " << s.total.flops;
  EXPECT_LT(relative(s.total.flops * s.iterations, t.op_flops), 1e-6)
      << s.total.flops << " x " << s.iterations << " vs " << t.op_flops;
  std::printf(
      "%-70s kernel table / op totals %.6f (FLOPs), %.6f (bytes); ops without a compute kernel: %lld\n",
      GetParam(), (table_flops + t.without_kernel_flops) / t.op_flops,
      (table_bytes + t.without_kernel_bytes) / t.op_bytes, static_cast<long long>(t.ops_without_kernel));
}

INSTANTIATE_TEST_SUITE_P(
    BundledGpuTraces, WorkTotals,
    ::testing::Values("kineto/tracelens__h100__gaunernst_bert-small-uncased__1016001.json.gz",
                      "kineto/tracelens__mi300__gaunernst_bert-small-uncased__1016001.json.gz",
                      "kineto/tracelens__sglang_Qwen3-8B_prefilldecode.json.gz",
                      "kineto/tracelens__vllm_decode_full__graph_execution.json.gz",
                      "kineto/hta__trace_filter__sampled_rank-0.json.gz"));

}  // namespace
}  // namespace flopscope
