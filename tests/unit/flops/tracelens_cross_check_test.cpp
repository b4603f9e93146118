// Independent counts: TraceLens's per-op performance model for the BERT-small H100 trace that is also in
// tests/data/kineto (AMD-AGI/TraceLens @ aa557305 / 1e638240,
// tests/traces/h100/gaunernst_bert-small-uncased__1016001_perf_report_csvs/{GEMM,SDPA_fwd}.csv, MIT).
// Arguments are the trace's own Input Dims / Input type / Concrete Inputs.
#include <gtest/gtest.h>

#include "flops_test_util.h"

namespace flopscope::testing {
namespace {

OpArg Bf(std::vector<std::int64_t> shape) {
  return T("bfloat16", std::move(shape));
}

TEST(TraceLensCrossCheck, GemmWithBiasFlopsAndBytesAgree) {
  // GEMM.csv: aten::addmm M=141 N=512 K=512 bias: GFLOPS 0.0739968, Data Moved 0.7763671875 MB.
  auto r = eval("aten::addmm", {Bf({512}), Bf({141, 512}), Bf({512, 512}), S("1"), S("1")});
  EXPECT_DOUBLE_EQ(r.flops, 0.0739968e9);
  EXPECT_DOUBLE_EQ(r.bytes_read + r.bytes_written, 0.7763671875 * 1024 * 1024);
  // The LM head: M=141 N=30522 K=512: GFLOPS 4.41119205.
  auto head = eval("aten::addmm", {Bf({30522}), Bf({141, 512}), Bf({512, 30522}), S("1"), S("1")});
  EXPECT_DOUBLE_EQ(head.flops, 4.41119205e9);
}

TEST(TraceLensCrossCheck, AttentionProductsAndBytesAgree) {
  // SDPA_fwd.csv: B=1 N=141 H=8 d=64, not causal: GFLOPS 0.040716288 (the two products only),
  // Data Moved 0.55078125 MB. Same convention: FLOPs are the two products.
  auto r = eval("aten::_scaled_dot_product_flash_attention",
                {Bf({1, 8, 141, 64}), Bf({1, 8, 141, 64}), Bf({1, 8, 141, 64}), S("0."), S("False"),
                 S("False"), S("0.125")});
  EXPECT_DOUBLE_EQ(r.flops, 40716288);
  EXPECT_DOUBLE_EQ(2 * r.macs, 0.040716288e9);
  EXPECT_DOUBLE_EQ(r.bytes_read + r.bytes_written, 0.55078125 * 1024 * 1024);
}

}  // namespace
}  // namespace flopscope::testing
