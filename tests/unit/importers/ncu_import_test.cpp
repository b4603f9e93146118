#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "analyzer/summary.h"
#include "import_test_util.h"

namespace flopscope {
namespace {

const char* kBert = "ncu/leleucas__bert_torch_nsight.csv";

TEST(NcuImport, BertDetailsPagePerKernelCounters) {
  auto run = testing::import_file(testing::fixture(kBert));
  ASSERT_TRUE(run.ok()) << run.status().message();
  EXPECT_EQ(run->info.source_kind, SourceKind::kNcu);
  ASSERT_EQ(run->kernels.size(), 26U);
  for (const auto& k : run->kernels) {
    EXPECT_TRUE(k.has_counters);
    EXPECT_GT(k.duration_ns, 0) << k.name;
  }
  // ID 0: "128" bytes DRAM; hfma "65,536" -> 2 * 65536 half-precision FLOPs; ffma "327,680".
  const auto& k0 = run->kernels[0];
  // Only dram__bytes.sum in this CSV: the total, with the read/write split left unmeasured (0), not the
  // total in the read column.
  EXPECT_DOUBLE_EQ(k0.dram_bytes, 128);
  EXPECT_DOUBLE_EQ(k0.dram_bytes_read, 0);
  EXPECT_DOUBLE_EQ(k0.dram_bytes_written, 0);
  EXPECT_DOUBLE_EQ(k0.flops_fp32, 2.0 * 327680);
  EXPECT_DOUBLE_EQ(k0.flops_fp16, 2.0 * 65536);
  EXPECT_DOUBLE_EQ(k0.l2_bytes, 666976);
  // sm__inst_executed_pipe_tensor.sum "2,048": instructions, in their own column, never FLOPs.
  EXPECT_DOUBLE_EQ(k0.tensor_pipe_inst, 2048);
  EXPECT_DOUBLE_EQ(k0.tensor_ops, 0);
  EXPECT_EQ(k0.grid[0], 256);
  EXPECT_EQ(k0.block[0], 256);
  // ID 10: dram "303,488"; fp32 = 2 * "4,194,304" + "196,608" + "262,144"; duration from cycles / rate.
  const auto& k10 = run->kernels[10];
  EXPECT_DOUBLE_EQ(k10.dram_bytes, 303488);
  EXPECT_DOUBLE_EQ(k10.flops_fp32, 2.0 * 4194304 + 196608 + 262144);
  EXPECT_NEAR(static_cast<double>(k10.duration_ns), 9687.43 / 1002424040.35 * 1e9, 1.0);
  // Kernels are laid end to end in ID order.
  EXPECT_EQ(run->kernels[1].start_ns, run->kernels[0].start_ns + run->kernels[0].duration_ns);
}

TEST(NcuImport, RawPageWithUnitsRow) {
  auto dir = testing::temp_dir();
  auto path = dir + "/raw.csv";
  testing::write_text(
      path,
      "==PROF== Connected to process 1\n"
      "\"ID\",\"Process ID\",\"Process Name\",\"Host Name\",\"Kernel Name\",\"Context\",\"Stream\","
      "\"Block Size\",\"Grid Size\",\"Device\",\"CC\",\"gpu__time_duration.sum\",\"dram__bytes_read.sum\","
      "\"dram__bytes_write.sum\",\"lts__t_bytes.sum\",\"smsp__sass_thread_inst_executed_op_dfma_pred_on."
      "sum\","
      "\"sm__inst_executed_pipe_tensor.sum\"\n"
      "\"\",\"\",\"\",\"\",\"\",\"\",\"\",\"\",\"\",\"\",\"\",\"usecond\",\"Mbyte\",\"Kbyte\",\"Gbyte\","
      "\"Kinst\",\"inst\"\n"
      "\"0\",\"7\",\"python\",\"host\",\"gemm\",\"1\",\"7\",\"(128, 1, 1)\",\"(64, 2, 1)\",\"0\",\"9.0\","
      "\"12.5\",\"1.5\",\"2\",\"0.25\",\"1,000\",\"4,096\"\n"
      "\"1\",\"7\",\"python\",\"host\",\"relu\",\"1\",\"7\",\"(256, 1, 1)\",\"(8, 1, 1)\",\"0\",\"9.0\","
      "\"3\",\"0\",\"0\",\"0\",\"0\",\"0\"\n");
  auto run = testing::import_file(path);
  ASSERT_TRUE(run.ok()) << run.status().message();
  ASSERT_EQ(run->kernels.size(), 2U);
  const auto& k = run->kernels[0];
  EXPECT_EQ(k.name, "gemm");
  EXPECT_EQ(k.duration_ns, 12500);
  EXPECT_DOUBLE_EQ(k.dram_bytes_read, 1.5e6);
  EXPECT_DOUBLE_EQ(k.dram_bytes_written, 2e3);
  EXPECT_DOUBLE_EQ(k.dram_bytes, 1.5e6 + 2e3);  // the split's sum when no dram__bytes.sum was collected
  EXPECT_DOUBLE_EQ(k.l2_bytes, 0.25e9);
  EXPECT_DOUBLE_EQ(k.flops_fp64, 2.0 * 1e6);
  EXPECT_DOUBLE_EQ(k.tensor_pipe_inst, 4096);
  EXPECT_DOUBLE_EQ(k.tensor_ops, 0);
  EXPECT_EQ(k.grid, (std::array<int, 3>{64, 2, 1}));
  EXPECT_EQ(k.block, (std::array<int, 3>{128, 1, 1}));
  EXPECT_EQ(k.stream, 7);
  EXPECT_EQ(run->kernels[1].start_ns, 12500);
}

// The counter arithmetic on a raw page with the GPU's compute capability: CUDA-core FLOPs = add + mul +
// 2 x fma per precision; tensor-pipe instructions x 512 on Volta (7.0), left a count on Ampere (8.0).
std::string raw_page(const std::string& cc) {
  return "\"ID\",\"Kernel Name\",\"Stream\",\"CC\",\"gpu__time_duration.sum\","
         "\"smsp__sass_thread_inst_executed_op_fadd_pred_on.sum\",\"smsp__sass_thread_inst_executed_op_fmul_"
         "pred_on.sum\","
         "\"smsp__sass_thread_inst_executed_op_ffma_pred_on.sum\",\"smsp__sass_thread_inst_executed_op_hfma_"
         "pred_on.sum\","
         "\"sm__inst_executed_pipe_tensor.sum\"\n"
         "\"\",\"\",\"\",\"\",\"nsecond\",\"inst\",\"inst\",\"inst\",\"inst\",\"inst\"\n"
         "\"0\",\"volta_h884gemm\",\"7\",\"" +
         cc +
         "\",\"2,000\",\"2,000\",\"3,000\",\"1,000,000\",\"10\",\"4,096\"\n"
         "\"1\",\"relu\",\"7\",\"" +
         cc + "\",\"500\",\"0\",\"0\",\"0\",\"0\",\"0\"\n";
}

TEST(NcuImport, TensorPipeInstructionsToFlopsOnlyWhereTheArchitectureFixesTheWork) {
  auto dir = testing::temp_dir();
  testing::write_text(dir + "/volta.csv", raw_page("7.0"));
  testing::write_text(dir + "/ampere.csv", raw_page("8.0"));
  auto volta = testing::import_file(dir + "/volta.csv");
  ASSERT_TRUE(volta.ok()) << volta.status().message();
  EXPECT_EQ(volta->info.device, "compute capability 7.0");
  const auto& k = volta->kernels[0];
  EXPECT_DOUBLE_EQ(k.flops_fp32, 2000 + 3000 + 2 * 1e6);
  EXPECT_DOUBLE_EQ(k.flops_fp16, 2 * 10);
  EXPECT_DOUBLE_EQ(k.tensor_pipe_inst, 4096);
  RunSummary v = summarize(*volta);
  ASSERT_TRUE(v.tensor_factor.has_value());
  EXPECT_EQ(v.tensor_factor->architecture, "Volta");
  EXPECT_DOUBLE_EQ(v.total.measured_flops, 2005000 + 20);  // CUDA cores
  EXPECT_DOUBLE_EQ(v.total.tensor_inst, 4096);
  EXPECT_DOUBLE_EQ(v.total.tensor_flops, 4096.0 * 512);  // 2,097,152

  auto ampere = testing::import_file(dir + "/ampere.csv");
  ASSERT_TRUE(ampere.ok()) << ampere.status().message();
  RunSummary a = summarize(*ampere);
  ASSERT_TRUE(a.tensor_factor.has_value());
  EXPECT_EQ(a.tensor_factor->architecture, "Ampere");
  EXPECT_FALSE(a.tensor_factor->converts());
  EXPECT_DOUBLE_EQ(a.total.tensor_inst, 4096);
  EXPECT_DOUBLE_EQ(a.total.tensor_flops, 0);
  EXPECT_DOUBLE_EQ(a.total.measured_flops, v.total.measured_flops);
}

TEST(NcuImport, AmpereTensorPipeCountsNonMmaKernels) {
  // Why Ampere gets no factor, on real data: in this A100 CSV the FP32 SIMT GEMMs count 0 tensor-pipe
  // instructions while kernels without any MMA (split-K reduce, elementwise, softmax) count hundreds.
  auto run = testing::import_file(testing::fixture("ncu/leleucas__bert_torch_nsight.csv"));
  ASSERT_TRUE(run.ok()) << run.status().message();
  double sgemm = 0, reduce = 0, softmax = 0;
  for (const auto& k : run->kernels) {
    if (k.name.starts_with("ampere_sgemm")) sgemm += k.tensor_pipe_inst;
    if (k.name.starts_with("void splitKreduce_kernel")) reduce += k.tensor_pipe_inst;
    if (k.name.find("softmax_warp_forward") != std::string::npos) softmax += k.tensor_pipe_inst;
  }
  EXPECT_EQ(sgemm, 0);
  EXPECT_EQ(reduce, 960 * 3 + 640);  // IDs 7, 11, 15 and 23
  EXPECT_EQ(softmax, 160);
}

}  // namespace
}  // namespace flopscope
