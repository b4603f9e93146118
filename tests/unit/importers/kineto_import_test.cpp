#include <gtest/gtest.h>

#include <map>
#include <set>

#include "analyzer/importers/kineto_events.h"
#include "import_test_util.h"

namespace flopscope {
namespace {

using testing::fixture;
using testing::import_file;
using testing::issue_count;

const char* kH100 = "kineto/tracelens__h100__gaunernst_bert-small-uncased__1016001.json.gz";
const char* kMi300 = "kineto/tracelens__mi300__gaunernst_bert-small-uncased__1016001.json.gz";
const char* kAlexNet = "kineto/hta__alexnet_a100__benchmark_result_2869224_1695835535_trace.json.gz";
const char* kRange =
    "kineto/hta__cupti_range_profiler_a100__benchmark_result_924719_1679055439_trace.json.gz";

std::set<std::string> module_paths(const RunData& run) {
  std::set<std::string> out;
  for (const auto& m : run.modules) out.insert(m.path);
  return out;
}

TEST(KinetoImport, H100BertEveryKernelLinkedAndAttributed) {
  auto run = import_file(fixture(kH100));
  ASSERT_TRUE(run.ok()) << run.status().message();
  std::int64_t kernels = 0, with_op = 0, with_module = 0, below_root = 0;
  for (const auto& k : run->kernels) {
    if (k.kind != KernelKind::kKernel) continue;
    ++kernels;
    with_op += k.op_id != kNoId;
    with_module += k.module_id != kNoId;
    below_root += k.module_id != kNoId && k.module_id != 0;
  }
  EXPECT_EQ(kernels, 60);
  EXPECT_EQ(with_op, 60);
  EXPECT_EQ(with_module, 60);
  EXPECT_EQ(below_root, 60);
  EXPECT_EQ(run->info.source_kind, SourceKind::kKineto);
  EXPECT_EQ(run->info.device, "NVIDIA H100 80GB HBM3");
  EXPECT_EQ(run->info.source_sha256.size(), 64U);
  EXPECT_EQ(run->modules[0].path, "");
  EXPECT_EQ(run->modules[0].type, "BertLMHeadModel");
}

TEST(KinetoImport, H100BertPerModuleGpuTimeAddsUpToTotal) {
  auto run = import_file(fixture(kH100));
  ASSERT_TRUE(run.ok()) << run.status().message();
  // Inclusive time per module through the parent chain; the root's must equal all kernel time.
  std::map<Id, Id> parent;
  for (const auto& m : run->modules) parent[m.id] = m.parent_id;
  std::map<Id, std::int64_t> inclusive;
  std::int64_t total = 0;
  for (const auto& k : run->kernels) {
    total += k.duration_ns;
    for (Id m = k.module_id; m != kNoId; m = parent[m]) inclusive[m] += k.duration_ns;
  }
  EXPECT_GT(total, 0);
  EXPECT_EQ(inclusive[0], total);
  // Children never exceed their parent.
  for (const auto& m : run->modules) {
    if (m.parent_id != kNoId) {
      EXPECT_LE(inclusive[m.id], inclusive[m.parent_id]) << m.path;
    }
  }
  // The encoder layers are distinct modules, named by class and order.
  auto paths = module_paths(*run);
  EXPECT_TRUE(paths.count("BertModel.BertEncoder.BertLayer_0.BertAttention.BertSdpaSelfAttention.Linear_0"));
  EXPECT_TRUE(paths.count("BertModel.BertEncoder.BertLayer_3.BertOutput.LayerNorm"));
}

TEST(KinetoImport, H100BertOpsCarryShapesAndFormulaFlops) {
  auto run = import_file(fixture(kH100));
  ASSERT_TRUE(run.ok()) << run.status().message();
  int linear = 0, nested_in_linear = 0;
  std::map<Id, const OpRecord*> by_id;
  for (const auto& op : run->ops) by_id[op.id] = &op;
  for (const auto& op : run->ops) {
    if (op.name == "aten::linear" && op.flops_source == FlopsSource::kFormula) {
      ++linear;
      ASSERT_GE(op.args.size(), 2U);
      EXPECT_TRUE(op.args[0].is_tensor);
      EXPECT_EQ(op.args[0].dtype, "bfloat16");
      EXPECT_GT(op.flops, 0);
    }
    if (op.name == "aten::addmm" && op.parent_op_id != kNoId &&
        by_id[op.parent_op_id]->name == "aten::linear") {
      EXPECT_EQ(op.flops_source, FlopsSource::kNested);
      ++nested_in_linear;
    }
  }
  EXPECT_GT(linear, 0);
  EXPECT_GT(nested_in_linear, 0);
  // Scalars keep their concrete value.
  bool saw_scalar = false;
  for (const auto& op : run->ops) {
    if (op.name != "aten::slice") continue;
    ASSERT_EQ(op.args.size(), 5U);
    EXPECT_FALSE(op.args[1].is_tensor);
    EXPECT_EQ(op.args[1].value, "0");
    saw_scalar = true;
    break;
  }
  EXPECT_TRUE(saw_scalar);
}

TEST(KinetoImport, Mi300BertSameModuleSetAsH100) {
  auto h100 = import_file(fixture(kH100));
  auto mi300 = import_file(fixture(kMi300));
  ASSERT_TRUE(h100.ok()) << h100.status().message();
  ASSERT_TRUE(mi300.ok()) << mi300.status().message();
  EXPECT_EQ(module_paths(*h100), module_paths(*mi300));
  std::int64_t kernels = 0, with_module = 0;
  for (const auto& k : mi300->kernels) {
    if (k.kind != KernelKind::kKernel) continue;
    ++kernels;
    with_module += k.module_id != kNoId;
  }
  EXPECT_GT(kernels, 0);
  EXPECT_EQ(with_module, kernels);
}

TEST(KinetoImport, AlexNetLinksEveryKernelThroughTimeContainment) {
  auto run = import_file(fixture(kAlexNet));
  ASSERT_TRUE(run.ok()) << run.status().message();
  std::int64_t kernels = 0, with_op = 0;
  for (const auto& k : run->kernels) {
    if (k.kind != KernelKind::kKernel) continue;
    ++kernels;
    with_op += k.op_id != kNoId;
  }
  EXPECT_EQ(kernels, 79);
  EXPECT_EQ(with_op, 79);
  EXPECT_GE(issue_count(*run, QualityCode::kernels_linked_by_time), 78);
  // The op found contains the kernel's launch, so it is a real aten op, not an unrelated id match.
  for (const auto& k : run->kernels) {
    if (k.kind != KernelKind::kKernel) continue;
    const auto& op = run->ops[static_cast<std::size_t>(k.op_id)];
    EXPECT_EQ(op.id, k.op_id);
    EXPECT_EQ(op.name.rfind("aten::", 0), 0U) << op.name;
  }
}

TEST(KinetoImport, RangeProfilerCountersGiveMeasuredFlops) {
  auto run = import_file(fixture(kRange));
  ASSERT_TRUE(run.ok()) << run.status().message();
  EXPECT_EQ(run->kernels.size(), 77U);
  const KernelRecord* sgemm = nullptr;
  for (const auto& k : run->kernels) {
    EXPECT_TRUE(k.has_counters);
    if (k.name == "ampere_sgemm_32x32_sliced1x4_tn" && sgemm == nullptr) sgemm = &k;
  }
  ASSERT_NE(sgemm, nullptr);
  // 2 * ffma + fadd + fmul, from the trace's counters.
  EXPECT_DOUBLE_EQ(sgemm->flops_fp32, 2.0 * 4831838208.0 + 1572864.0 + 2097152.0);
  EXPECT_DOUBLE_EQ(sgemm->flops_fp64, 0);
  EXPECT_DOUBLE_EQ(sgemm->flops_fp16, 0);
}

TEST(KinetoImport, GzipAndPlainGiveTheSameRun) {
  auto dir = testing::temp_dir();
  auto plain = dir + "/bert.json";
  testing::write_text(plain, testing::gunzip(fixture(kH100)));
  auto a = import_file(fixture(kH100));
  auto b = import_file(plain);
  ASSERT_TRUE(a.ok() && b.ok());
  EXPECT_EQ(a->ops.size(), b->ops.size());
  EXPECT_EQ(a->kernels.size(), b->kernels.size());
  EXPECT_EQ(a->modules.size(), b->modules.size());
  for (std::size_t i = 0; i < a->kernels.size(); ++i) EXPECT_EQ(a->kernels[i].op_id, b->kernels[i].op_id);
}

// The importer refills the records of stored batches (8192 rows each) for the next ones: no field of an
// earlier row may survive into a later one. Rows alternate between every optional field set (arguments,
// FLOPs, counters) and none, over enough batches that records are reused.
TEST(KinetoImport, RowsOfLaterBatchesKeepNothingOfEarlierRows) {
  constexpr int kOps = 40'000, kRanges = 20'000, kKernels = 20'000;
  std::string trace = "{\"traceEvents\": [";
  auto event = [&](const std::string& text) {
    if (trace.back() != '[') trace += ",\n";
    trace += text;
  };
  for (int i = 0; i < kOps; ++i) {
    const std::string ts = std::to_string(10 + 2 * i);
    if (i % 3 == 0) {
      event(R"({"ph":"X","cat":"cpu_op","name":"aten::mm","pid":1,"tid":1,"ts":)" + ts +
            R"(,"dur":1,"args":{"Input Dims":[[4,8],[8,16]],"Input type":["float","float"]}})");
    } else {
      event(R"({"ph":"X","cat":"cpu_op","name":"aten::a_custom_op_with_a_long_name","pid":1,"tid":1,"ts":)" +
            ts + R"(,"dur":1})");
    }
  }
  for (int i = 0; i < kRanges + kKernels; ++i) {
    const std::string ts = std::to_string(10 + 2 * i);
    // Counted ranges in the first batches, plain kernels after them in the later ones.
    if (i < kRanges) {
      event(R"({"ph":"X","cat":"cuda_profiler_range","name":"range","pid":0,"tid":7,"ts":)" + ts +
            R"(,"dur":1,"args":{"sm__inst_executed_pipe_tensor.sum":5,"dram__bytes.sum":64}})");
    } else {
      event(R"({"ph":"X","cat":"kernel","name":"k","pid":0,"tid":7,"ts":)" + ts +
            R"(,"dur":1,"args":{"device":0,"stream":7}})");
    }
  }
  trace += "]}";
  auto dir = testing::temp_dir();
  testing::write_text(dir + "/t.json", trace);
  auto run = import_file(dir + "/t.json");
  ASSERT_TRUE(run.ok()) << run.status().message();
  ASSERT_EQ(run->ops.size(), static_cast<std::size_t>(kOps));
  int wrong_ops = 0;
  for (const auto& op : run->ops) {
    const bool mm = op.sequence % 3 == 0;  // ops are numbered in start order, as they were written
    const bool ok = mm ? op.name == "aten::mm" && op.args.size() == 2 && op.flops == 2.0 * 4 * 8 * 16 &&
                             op.flops_source == FlopsSource::kFormula
                       : op.name == "aten::a_custom_op_with_a_long_name" && op.args.empty() &&
                             op.flops == 0 && op.macs == 0 && op.bytes_read == 0 && op.flops_note.empty() &&
                             op.flops_source == FlopsSource::kNone;
    wrong_ops += ok ? 0 : 1;
  }
  EXPECT_EQ(wrong_ops, 0);
  ASSERT_EQ(run->kernels.size(), static_cast<std::size_t>(kRanges + kKernels));
  int ranges = 0, wrong_kernels = 0;
  for (const auto& k : run->kernels) {
    if (k.name == "range") {
      ++ranges;
      wrong_kernels += k.has_counters && k.tensor_pipe_inst == 5 && k.dram_bytes == 64 ? 0 : 1;
    } else {
      wrong_kernels +=
          k.name == "k" && !k.has_counters && k.tensor_pipe_inst == 0 && k.dram_bytes == 0 ? 0 : 1;
    }
  }
  EXPECT_EQ(ranges, kRanges);
  EXPECT_EQ(wrong_kernels, 0);
}

TEST(KinetoTimestamps, ParsesMicrosecondsToExactNanoseconds) {
  std::int64_t ns = 0;
  ASSERT_TRUE(parse_us_to_ns("1419247333291.708", ns));
  EXPECT_EQ(ns, 1419247333291708LL);
  ASSERT_TRUE(parse_us_to_ns("1695835542514261", ns));
  EXPECT_EQ(ns, 1695835542514261000LL);
  ASSERT_TRUE(parse_us_to_ns("4.5", ns));
  EXPECT_EQ(ns, 4500);
  ASSERT_TRUE(parse_us_to_ns("1.5e3", ns));
  EXPECT_EQ(ns, 1500000);
  EXPECT_FALSE(parse_us_to_ns("abc", ns));
  EXPECT_FALSE(parse_us_to_ns("", ns));
}

}  // namespace
}  // namespace flopscope
