// FLOPs per op against independent references on real traces, and the range/orphan/causal behaviour of
// the import on small hand-written ones:
//  - BERT-small on H100: SDPA 40,716,288 FLOPs per call and the GEMMs of TraceLens' GEMM.csv;
//  - SGLang Qwen3-8B prefill on MI300X: every row of TraceLens' own GEMM.csv and InferenceAttention_fwd.csv
//    (tests/data/kineto/tracelens_oracle__sglang_Qwen3-8B_prefilldecode/) by op name and input shapes.
#include <gtest/gtest.h>

#include <cmath>
#include <map>

#include "analyzer/importers/byte_source.h"
#include "analyzer/importers/csv_reader.h"
#include "analyzer/op_costs.h"
#include "analyzer/summary.h"
#include "import_test_util.h"

namespace flopscope {
namespace {

std::string dims_of(const OpRecord& op, std::size_t n) {
  std::string s = "[";
  for (std::size_t i = 0; i < n && i < op.args.size(); ++i) {
    s += i ? ", [" : "[";
    for (std::size_t d = 0; d < op.args[i].shape.size(); ++d) {
      s += (d ? ", " : "") + std::to_string(op.args[i].shape[d]);
    }
    s += "]";
  }
  return s;
}

// The first n shapes of a TraceLens "Input Dims_first" field, in dims_of's form.
std::string first_dims(const std::string& field, std::size_t n) {
  std::string out = "[";
  std::size_t count = 0, i = 1;
  while (count < n && i < field.size()) {
    auto open = field.find('[', i);
    auto close = field.find(']', open);
    if (open == std::string::npos || close == std::string::npos) break;
    out += (count ? ", " : "") + field.substr(open, close - open + 1);
    i = close + 1;
    ++count;
  }
  return out;
}

TEST(FlopsOracle, BertH100AttentionAndGemmsMatchTraceLens) {
  auto run = testing::import_file(
      testing::fixture("kineto/tracelens__h100__gaunernst_bert-small-uncased__1016001.json.gz"));
  ASSERT_TRUE(run.ok()) << run.status().message();
  int sdpa = 0, gemms = 0;
  for (const auto& op : run->ops) {
    if (op.flops_source != FlopsSource::kFormula) continue;
    if (op.name.find("scaled_dot_product") != std::string::npos) {
      EXPECT_DOUBLE_EQ(op.flops, 40716288) << op.name;
      ++sdpa;
    }
    if (op.name == "aten::linear" && op.args.size() >= 2 && op.args[0].shape.size() >= 2) {
      // GEMM.csv rows: 2*M*N*K + M*N with M = 141 (0.0739968 GFLOPs for 512x512; 4.41119205 for the head).
      double m = 141, k = static_cast<double>(op.args[1].shape[1]),
             n = static_cast<double>(op.args[1].shape[0]);
      EXPECT_DOUBLE_EQ(op.flops, 2 * m * n * k + m * n);
      if (n == 512 && k == 512) {
        EXPECT_DOUBLE_EQ(op.flops, 0.0739968e9);
      }
      if (n == 30522) {
        EXPECT_DOUBLE_EQ(op.flops, 4.41119205e9);
      }
      ++gemms;
    }
  }
  EXPECT_EQ(sdpa, 4);
  EXPECT_GT(gemms, 20);
}

struct OracleRow {
  std::string name, dims;
  double gflops = 0;
};

std::vector<OracleRow> read_oracle(const std::string& file, std::size_t shapes) {
  auto src =
      ByteSource::open(testing::fixture("kineto/tracelens_oracle__sglang_Qwen3-8B_prefilldecode/" + file));
  EXPECT_TRUE(src.ok());
  CsvReader csv(*src);
  std::vector<std::string> f, header;
  std::vector<OracleRow> rows;
  while (true) {
    auto more = csv.next(header.empty() ? header : f);
    if (!more.ok() || !*more) break;
    if (f.empty()) continue;
    auto col = [&](const std::string& name) {
      for (std::size_t i = 0; i < header.size(); ++i) {
        if (header[i] == name) return f[i];
      }
      return std::string();
    };
    rows.push_back(
        {col("name"), first_dims(col("Input Dims_first"), shapes), std::stod(col("GFLOPS_first"))});
  }
  return rows;
}

TEST(FlopsOracle, SglangQwen3GemmAndAttentionAgainstTraceLensCsv) {
  auto run =
      testing::import_file(testing::fixture("kineto/tracelens__sglang_Qwen3-8B_prefilldecode.json.gz"));
  ASSERT_TRUE(run.ok()) << run.status().message();
  auto check = [&](const std::vector<OracleRow>& rows, double expected_ratio) {
    for (const auto& row : rows) {
      if (row.gflops <= 0) continue;  // sglang::store_cache: a copy, 0 FLOPs in TraceLens too
      int found = 0;
      for (const auto& op : run->ops) {
        if (op.name != row.name || dims_of(op, 2) != row.dims) continue;
        ++found;
        EXPECT_NEAR(op.flops / (row.gflops * 1e9), expected_ratio, 1e-12) << row.name << " " << row.dims;
      }
      EXPECT_GT(found, 0) << row.name << " " << row.dims;
    }
  };
  auto gemm = read_oracle("GEMM.csv", 2);
  ASSERT_EQ(gemm.size(), 9U);
  check(gemm, 1.0);
  // Causal attention: flopscope counts the exact triangle N(N+1)/2, TraceLens N^2/2.
  auto attention = read_oracle("InferenceAttention_fwd.csv", 2);
  ASSERT_EQ(attention.size(), 2U);
  check(attention, 1025.0 / 1024.0);
  // The serving annotation (execute_..., step[...]) is a range, not the owner of every op.
  RunSummary s = summarize(*run);
  EXPECT_GT(testing::issue_count(*run, QualityCode::user_annotations_as_ranges), 0);
  int layer = s.find("Qwen3Model.Qwen3DecoderLayer_0");
  ASSERT_GE(layer, 0);
  EXPECT_DOUBLE_EQ(s.modules[static_cast<std::size_t>(layer)].calls, 1);
  EXPECT_GT(s.modules[static_cast<std::size_t>(layer)].inclusive_time.p50, 0);
  EXPECT_GT(s.modules[static_cast<std::size_t>(layer)].gpu_time.p50, 0);
  // Custom ops without a formula (RMSNorm, SiLU-and-mul, RoPE) are gaps weighted by device time.
  EXPECT_FALSE(s.coverage.flops_complete);
  EXPECT_GT(s.coverage.known_device_share, 0.85);
  EXPECT_LT(s.coverage.known_device_share, 0.95);
}

StatusOr<RunData> import_text(const std::string& name, const std::string& text) {
  auto path = testing::temp_dir() + "/" + name;
  testing::write_text(path, text);
  return testing::import_file(path);
}

TEST(TraceRanges, AnnotationAroundTheForwardKeepsModulesAndOrphansLeaveIterations) {
  // execute_context_1 encloses the model; a kernel with no launch in the trace ran before the window; the
  // attention is causal over N = 16 with B = 2, H = 4, d = 8.
  auto run = import_text("serving.json", R"J({"traceEvents": [
    {"ph": "X", "cat": "user_annotation", "name": "execute_context_1(sq16)", "pid": 1, "tid": 1, "ts": 5, "dur": 200},
    {"ph": "X", "cat": "python_function", "name": "nn.Module: Net_0", "pid": 1, "tid": 1, "ts": 10, "dur": 100},
    {"ph": "X", "cat": "python_function", "name": "nn.Module: Attention_0", "pid": 1, "tid": 1, "ts": 20, "dur": 50},
    {"ph": "X", "cat": "cpu_op", "name": "aten::scaled_dot_product_attention", "pid": 1, "tid": 1, "ts": 25, "dur": 40,
     "args": {"External id": 3, "Input Dims": [[2, 4, 16, 8], [2, 4, 16, 8], [2, 4, 16, 8], [], [], [], []],
              "Input type": ["float", "float", "float", "", "Scalar", "Scalar", ""],
              "Concrete Inputs": ["", "", "", "", "0.", "True", ""]}},
    {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 1, "tid": 1, "ts": 30, "dur": 5,
     "args": {"External id": 3, "correlation": 77}},
    {"ph": "X", "cat": "kernel", "name": "flash_fwd", "pid": 0, "tid": 7, "ts": 120, "dur": 30,
     "args": {"device": 0, "stream": 7, "correlation": 77}},
    {"ph": "X", "cat": "kernel", "name": "leftover_from_before", "pid": 0, "tid": 7, "ts": 0, "dur": 90,
     "args": {"device": 0, "stream": 7, "correlation": 5}}
  ]})J");
  ASSERT_TRUE(run.ok()) << run.status().message();
  ASSERT_EQ(run->ops.size(), 1U);  // the annotation is not an op
  EXPECT_DOUBLE_EQ(run->ops[0].flops, 4.0 * 8 * 2 * 4 * 16 * 17 / 2);
  RunSummary s = summarize(*run);
  int attn = s.find("Attention");
  ASSERT_GE(attn, 0);
  EXPECT_DOUBLE_EQ(s.modules[static_cast<std::size_t>(attn)].calls, 1);
  EXPECT_DOUBLE_EQ(s.modules[static_cast<std::size_t>(attn)].inclusive_time.p50, 40000);
  EXPECT_EQ(s.orphans.kernels, 1);
  EXPECT_DOUBLE_EQ(s.iteration_gpu_time.p50, 30000);  // the orphan's 90 us are not in the iteration
  ASSERT_EQ(s.timeline.devices.size(), 1U);
  EXPECT_DOUBLE_EQ(s.timeline.devices[0].busy_ns, 120000);  // the timeline keeps every activity
}

// HTA's AlexNet trace was recorded without record_shapes: aten::linear and the convolutions have formulas
// but no arguments. Their FLOPs are unknown (a gap, never 0), and the gap says why instead of reading as a
// missing formula; an op without a formula has no such note.
TEST(FlopsOracle, FormulaWithoutRecordedArgumentsIsAGapThatSaysWhy) {
  auto run = testing::import_file(
      testing::fixture("kineto/hta__alexnet_a100__benchmark_result_2869224_1695835535_trace.json.gz"));
  ASSERT_TRUE(run.ok()) << run.status().message();
  RunSummary s = summarize(*run);
  int with_note = 0;
  for (const auto& g : s.coverage_gaps) {
    if (g.name == "aten::linear" || g.name == "aten::cudnn_convolution" || g.name == "aten::addmm") {
      EXPECT_EQ(g.note, kArgumentsNotRecorded) << g.name;
      ++with_note;
    }
  }
  EXPECT_EQ(with_note, 3);
  for (const auto& op : run->ops) {
    if (op.name == "aten::linear") {
      EXPECT_EQ(op.flops_source, FlopsSource::kNone);
    }
  }
}

}  // namespace
}  // namespace flopscope
