// CUDA-graph replays attributed to the ops and modules of the graph's capture (import --graph-capture):
// the real vLLM decode pair (one hipGraphLaunch replaying 421 kernels) and small hand-written pairs for
// repeated launches, eager work while capturing, unmatched replays and captures that name no kernels.
#include <gtest/gtest.h>

#include <map>
#include <set>

#include "analyzer/importers/importer.h"
#include "analyzer/summary.h"
#include "db/model/run_sink.h"
#include "import_test_util.h"

namespace flopscope {
namespace {

constexpr const char* kExecution = "kineto/tracelens__vllm_decode_full__graph_execution.json.gz";
constexpr const char* kCapture = "kineto/tracelens__vllm_decode_full__graph_capture_rank_0.slice.json.gz";
constexpr std::int64_t kGraphLaunch = 505113;  // the hipGraphLaunch's correlation in the execution trace

StatusOr<RunData> import_with_capture(const std::string& path, const std::string& capture) {
  ImportOptions options;
  options.graph_capture = capture;
  return testing::import_file(path, options);
}

const OpRecord* op_by_id(const RunData& run, Id id) {
  for (const auto& op : run.ops) {
    if (op.id == id) return &op;
  }
  return nullptr;
}

TEST(GraphCapture, VllmDecodeReplaysAttributedToTheCapture) {
  auto alone = testing::import_file(testing::fixture(kExecution));
  ASSERT_TRUE(alone.ok()) << alone.status().message();
  auto run = import_with_capture(testing::fixture(kExecution), testing::fixture(kCapture));
  ASSERT_TRUE(run.ok()) << run.status().message();
  // Counted either way, never dropped.
  ASSERT_EQ(alone->kernels.size(), 425U + 9U);  // 425 kernels and 9 copies
  ASSERT_EQ(run->kernels.size(), alone->kernels.size());

  int replayed = 0, with_op = 0, in_graph_module = 0, gemm_to_linear = 0;
  std::set<std::string> modules;
  for (const auto& k : run->kernels) {
    if (k.correlation != kGraphLaunch) continue;
    ++replayed;
    const OpRecord* op = op_by_id(*run, k.op_id);
    if (op == nullptr) continue;
    ++with_op;
    EXPECT_EQ(op->duration_ns, 0) << op->name;  // host time was spent capturing, not in this run
    const std::string path = testing::module_path(*run, k.module_id);
    modules.insert(path);
    if (path.find("GraphModule") != std::string::npos) ++in_graph_module;
    // hipBLASLt GEMMs (Cijk_*) come from the capture's linear layers.
    if (k.name.starts_with("Cijk_")) {
      const OpRecord* top = op;
      while (top->parent_op_id != kNoId) top = op_by_id(*run, top->parent_op_id);
      EXPECT_TRUE(top->name == "vllm::rocm_unquantized_gemm" || top->name == "aten::linear") << top->name;
      ++gemm_to_linear;
    }
  }
  EXPECT_EQ(replayed, 421);
  EXPECT_EQ(with_op, 421);
  EXPECT_EQ(testing::issue_count(*run, QualityCode::graph_replay_matched), 421);
  EXPECT_EQ(testing::issue_count(*run, QualityCode::graph_replay_unmatched), 0);
  EXPECT_GT(in_graph_module, 400);
  // The trace names the split graph and every compiled piece inside it "GraphModule_0", so the capture's
  // tree is the model, its GraphModule and the pieces' GraphModule; every replay lands in that tree, none
  // stays in the graph launch's scope.
  EXPECT_EQ(modules, (std::set<std::string>{"GptOssForCausalLM.GraphModule",
                                            "GptOssForCausalLM.GraphModule.GraphModule"}));
  EXPECT_EQ(gemm_to_linear, 72);  // the 72 hipBLASLt GEMMs: 24 layers x (qkv, o, router)
  // The capture's eager work (fills that ran while capturing) and its 7 kernels are not part of the run.
  for (const auto& k : run->kernels) EXPECT_GT(k.correlation, 500000) << k.name;

  // Without the capture the replays belong to the graph launch (VllmDecodeAloneReplaysOwnedByTheGraphLaunch);
  // with it their FLOPs count.
  RunSummary before = summarize(*alone), after = summarize(*run);
  EXPECT_GT(after.total.flops, before.total.flops);
  EXPECT_GT(after.coverage.known_device_share, before.coverage.known_device_share);
}

// Verified apart from flopscope by reading the JSON with Python: the trace has one hipGraphLaunch
// (correlation 505113, 506.768 us, no cpu_op around it on its thread) and 425 kernels, 421 of which carry its
// correlation and take 10,388,482 ns together; 100 cpu_op events.
TEST(GraphCapture, VllmDecodeAloneReplaysOwnedByTheGraphLaunch) {
  auto run = testing::import_file(testing::fixture(kExecution));
  ASSERT_TRUE(run.ok()) << run.status().message();
  ASSERT_EQ(run->ops.size(), 101U);  // the 100 cpu_ops and the graph launch
  const OpRecord* launch = nullptr;
  for (const auto& op : run->ops) {
    if (op.name == "hipGraphLaunch") {
      ASSERT_EQ(launch, nullptr) << "one graph launch op";
      launch = &op;
    }
  }
  ASSERT_NE(launch, nullptr);
  EXPECT_EQ(launch->duration_ns, 506768);
  EXPECT_EQ(launch->parent_op_id, kNoId);  // no op around the launch in this trace
  EXPECT_EQ(launch->flops_source, FlopsSource::kNone);
  int replayed = 0, others_with_op = 0;
  std::int64_t replayed_ns = 0;
  for (const auto& k : run->kernels) {
    if (k.correlation == kGraphLaunch) {
      ++replayed;
      replayed_ns += k.duration_ns;
      EXPECT_EQ(k.op_id, launch->id) << k.name;
    } else {
      others_with_op += k.op_id != kNoId;
    }
  }
  EXPECT_EQ(replayed, 421);
  EXPECT_EQ(replayed_ns, 10388482);
  EXPECT_EQ(others_with_op, 4 + 9);  // the eager kernels and copies, by External id
  EXPECT_EQ(testing::issue_count(*run, QualityCode::graph_replay_at_launch), 421);
  EXPECT_EQ(testing::issue_detail(*run, QualityCode::graph_replay_at_launch).rfind("1 graph launch;", 0), 0U);
  EXPECT_EQ(testing::issue_count(*run, QualityCode::kernels_launched_outside_ops), 0);
  EXPECT_EQ(testing::issue_count(*run, QualityCode::kernels_linked_by_external_id), 13);

  // The report: every kernel has an op, the replays are named as such, and their work is an unknown, not 0.
  RunSummary s = summarize(*run);
  EXPECT_EQ(s.attribution.kernels_with_op, 434);
  EXPECT_EQ(s.attribution.kernels_from_graph_replay, 421);
  ASSERT_FALSE(s.coverage_gaps.empty());
  EXPECT_EQ(s.coverage_gaps.front().name, "hipGraphLaunch");
  EXPECT_DOUBLE_EQ(s.coverage_gaps.front().device_time_ns, 10388482.0);
  EXPECT_FALSE(s.coverage.flops_complete);
}

TEST(GraphCapture, GraphLaunchInsideAnOpIsAnOpUnderIt) {
  // A custom op replays a graph; its kernels carry the op's External id. Without a capture trace they
  // belong to the launch, an op under the custom op, in the module around both; the eager kernel after
  // it stays with its own op.
  auto dir = testing::temp_dir();
  testing::write_text(dir + "/exec.json", R"J({"traceEvents": [
    {"ph": "X", "cat": "python_function", "name": "nn.Module: Runner_0", "pid": 9, "tid": 9, "ts": 1000, "dur": 500},
    {"ph": "X", "cat": "python_function", "name": "nn.Module: Block_0", "pid": 9, "tid": 9, "ts": 1004, "dur": 52},
    {"ph": "X", "cat": "cpu_op", "name": "my::replay", "pid": 9, "tid": 9, "ts": 1005, "dur": 50,
     "args": {"External id": 7}},
    {"ph": "X", "cat": "cuda_runtime", "name": "cudaGraphLaunch", "pid": 9, "tid": 9, "ts": 1010, "dur": 5,
     "args": {"External id": 7, "correlation": 12}},
    {"ph": "X", "cat": "cpu_op", "name": "aten::relu", "pid": 9, "tid": 9, "ts": 1060, "dur": 20,
     "args": {"External id": 8, "Input Dims": [[4, 16]], "Input type": ["float"]}},
    {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 9, "tid": 9, "ts": 1065, "dur": 2,
     "args": {"External id": 8, "correlation": 13}},
    {"ph": "X", "cat": "kernel", "name": "gemm", "pid": 0, "tid": 7, "ts": 1100, "dur": 10,
     "args": {"device": 0, "stream": 7, "correlation": 12, "External id": 7, "graph id": 1, "graph node id": 1}},
    {"ph": "X", "cat": "kernel", "name": "relu_kernel", "pid": 0, "tid": 7, "ts": 1111, "dur": 3,
     "args": {"device": 0, "stream": 7, "correlation": 12, "External id": 7, "graph id": 1, "graph node id": 2}},
    {"ph": "X", "cat": "kernel", "name": "relu_kernel", "pid": 0, "tid": 7, "ts": 1120, "dur": 3,
     "args": {"device": 0, "stream": 7, "correlation": 13, "External id": 8}}
  ]})J");
  auto run = testing::import_file(dir + "/exec.json");
  ASSERT_TRUE(run.ok()) << run.status().message();
  ASSERT_EQ(run->ops.size(), 3U);
  ASSERT_EQ(run->kernels.size(), 3U);
  const OpRecord* launch = op_by_id(*run, run->kernels[0].op_id);
  ASSERT_NE(launch, nullptr);
  EXPECT_EQ(launch->name, "cudaGraphLaunch");
  EXPECT_EQ(run->kernels[1].op_id, launch->id);
  const OpRecord* outer = op_by_id(*run, launch->parent_op_id);
  ASSERT_NE(outer, nullptr);
  EXPECT_EQ(outer->name, "my::replay");
  EXPECT_EQ(testing::module_path(*run, run->kernels[0].module_id), "Block");  // Runner is the model
  EXPECT_EQ(op_by_id(*run, run->kernels[2].op_id)->name, "aten::relu");
  EXPECT_EQ(testing::issue_count(*run, QualityCode::graph_replay_at_launch), 2);
  EXPECT_EQ(testing::issue_count(*run, QualityCode::kernels_linked_by_external_id), 1);
  // top_ops lists the outermost op, with the replayed kernels' device time under it.
  RunSummary s = summarize(*run);
  bool found = false;
  for (const auto& t : s.top_ops) {
    if (t.name != "my::replay") continue;
    found = true;
    EXPECT_DOUBLE_EQ(t.device_time_ns, 13000.0);
  }
  EXPECT_TRUE(found);
}

StatusOr<RunData> import_pair(const std::string& execution, const std::string& capture) {
  auto dir = testing::temp_dir();
  testing::write_text(dir + "/exec.json", execution);
  testing::write_text(dir + "/capture.json", capture);
  return import_with_capture(dir + "/exec.json", dir + "/capture.json");
}

// While capturing: one eager fill (its kernel ran), then Net_0 > Linear_0 > aten::linear launching gemm and
// Net_0 > Act_0 > aten::relu launching relu_kernel, all captured.
const char* kCaptureTrace = R"J({"traceEvents": [
  {"ph": "X", "cat": "cpu_op", "name": "aten::fill_", "pid": 9, "tid": 9, "ts": 1, "dur": 4, "args": {"External id": 1}},
  {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 9, "tid": 9, "ts": 2, "dur": 1,
   "args": {"External id": 1, "correlation": 11, "kernel": "fill_kernel"}},
  {"ph": "X", "cat": "kernel", "name": "fill_kernel", "pid": 0, "tid": 7, "ts": 3, "dur": 1,
   "args": {"device": 0, "stream": 7, "correlation": 11}},
  {"ph": "X", "cat": "python_function", "name": "nn.Module: Net_0", "pid": 9, "tid": 9, "ts": 10, "dur": 100},
  {"ph": "X", "cat": "python_function", "name": "nn.Module: Linear_0", "pid": 9, "tid": 9, "ts": 12, "dur": 40},
  {"ph": "X", "cat": "cpu_op", "name": "aten::linear", "pid": 9, "tid": 9, "ts": 15, "dur": 30,
   "args": {"External id": 2, "Input Dims": [[4, 8], [16, 8], [16]], "Input type": ["float", "float", "float"]}},
  {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 9, "tid": 9, "ts": 20, "dur": 2,
   "args": {"External id": 2, "correlation": 12, "kernel": "gemm"}},
  {"ph": "X", "cat": "python_function", "name": "nn.Module: Act_0", "pid": 9, "tid": 9, "ts": 60, "dur": 40},
  {"ph": "X", "cat": "cpu_op", "name": "aten::relu", "pid": 9, "tid": 9, "ts": 65, "dur": 30,
   "args": {"External id": 3, "Input Dims": [[4, 16]], "Input type": ["float"]}},
  {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 9, "tid": 9, "ts": 70, "dur": 2,
   "args": {"External id": 3, "correlation": 13, "kernel": "relu_kernel"}}
]})J";

TEST(GraphCapture, EveryLaunchOfTheGraphIsMatchedFromItsStart) {
  // Two launches of the graph, each replaying gemm and relu_kernel, and one replayed kernel the capture
  // does not know; the capture's correlation ids reappear in the execution trace for unrelated launches.
  auto run = import_pair(R"J({"traceEvents": [
    {"ph": "X", "cat": "python_function", "name": "nn.Module: Runner_0", "pid": 9, "tid": 9, "ts": 1000, "dur": 500},
    {"ph": "X", "cat": "cuda_runtime", "name": "cudaGraphLaunch", "pid": 9, "tid": 9, "ts": 1010, "dur": 5,
     "args": {"correlation": 12}},
    {"ph": "X", "cat": "cuda_runtime", "name": "cudaGraphLaunch", "pid": 9, "tid": 9, "ts": 1200, "dur": 5,
     "args": {"correlation": 40}},
    {"ph": "X", "cat": "kernel", "name": "gemm", "pid": 0, "tid": 7, "ts": 1100, "dur": 10,
     "args": {"device": 0, "stream": 7, "correlation": 12, "graph id": 1, "graph node id": 1}},
    {"ph": "X", "cat": "kernel", "name": "relu_kernel", "pid": 0, "tid": 7, "ts": 1111, "dur": 3,
     "args": {"device": 0, "stream": 7, "correlation": 12, "graph id": 1, "graph node id": 2}},
    {"ph": "X", "cat": "kernel", "name": "gemm", "pid": 0, "tid": 7, "ts": 1300, "dur": 10,
     "args": {"device": 0, "stream": 7, "correlation": 40, "graph id": 1, "graph node id": 1}},
    {"ph": "X", "cat": "kernel", "name": "relu_kernel", "pid": 0, "tid": 7, "ts": 1311, "dur": 3,
     "args": {"device": 0, "stream": 7, "correlation": 40, "graph id": 1, "graph node id": 2}},
    {"ph": "X", "cat": "kernel", "name": "relu_kernel", "pid": 0, "tid": 7, "ts": 1315, "dur": 3,
     "args": {"device": 0, "stream": 7, "correlation": 40, "graph id": 1, "graph node id": 3}}
  ]})J",
                         kCaptureTrace);
  ASSERT_TRUE(run.ok()) << run.status().message();
  ASSERT_EQ(run->kernels.size(), 5U);  // the capture's eager fill kernel is not one of them
  EXPECT_EQ(testing::issue_count(*run, QualityCode::graph_replay_matched), 4);
  EXPECT_EQ(testing::issue_count(*run, QualityCode::graph_replay_unmatched), 1);
  // The capture's ops: linear and relu (the eager fill_ before the captured region is left out).
  ASSERT_EQ(run->ops.size(), 2U);
  EXPECT_EQ(testing::issue_count(*run, QualityCode::capture_ops_outside_region), 1);
  for (const auto& op : run->ops) {
    EXPECT_EQ(op.duration_ns, 0);
    EXPECT_EQ(op.start_ns, 10000);  // at the first graph launch, 10 us after the run's first event
  }
  for (std::size_t i = 0; i < 4; ++i) {
    const auto& k = run->kernels[i];
    const OpRecord* op = op_by_id(*run, k.op_id);
    ASSERT_NE(op, nullptr) << i;
    EXPECT_EQ(op->name, k.name == "gemm" ? "aten::linear" : "aten::relu");
    EXPECT_EQ(testing::module_path(*run, k.module_id), k.name == "gemm" ? "Net.Linear" : "Net.Act");
  }
  // The third relu_kernel of the second launch has no captured launch left: it keeps the launch's scope.
  EXPECT_EQ(run->kernels[4].op_id, kNoId);
  EXPECT_EQ(testing::module_path(*run, run->kernels[4].module_id), "Runner");
  // Two top-level instances (the runner here, the model in the capture): neither is the root.
  RunSummary s = summarize(*run);
  EXPECT_GE(s.find("Net.Linear"), 0);
  EXPECT_GT(s.total.flops, 0);
}

TEST(GraphCapture, PiecewiseCaptureLeavesTheEagerOpsBetweenPiecesToTheExecutionRun) {
  // vLLM's piecewise capture: piece 1 (a linear), then attention run eagerly (its kernel executed while
  // capturing), then piece 2 (a relu). The execution run replays the two pieces and runs attention eagerly
  // itself: attention is called once per iteration, and its bytes are the execution run's only.
  const char* capture = R"J({"traceEvents": [
    {"ph": "X", "cat": "cpu_op", "name": "aten::linear", "pid": 9, "tid": 9, "ts": 15, "dur": 30,
     "args": {"External id": 2, "Input Dims": [[4, 8], [16, 8], [16]], "Input type": ["float", "float", "float"]}},
    {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 9, "tid": 9, "ts": 20, "dur": 2,
     "args": {"External id": 2, "correlation": 12, "kernel": "gemm"}},
    {"ph": "X", "cat": "cpu_op", "name": "aten::view", "pid": 9, "tid": 9, "ts": 47, "dur": 2, "args": {"External id": 5}},
    {"ph": "X", "cat": "cpu_op", "name": "aten::mul", "pid": 9, "tid": 9, "ts": 50, "dur": 10,
     "args": {"External id": 4, "Input Dims": [[4, 16], [4, 16]], "Input type": ["float", "float"]}},
    {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 9, "tid": 9, "ts": 52, "dur": 2,
     "args": {"External id": 4, "correlation": 14, "kernel": "attention_kernel"}},
    {"ph": "X", "cat": "kernel", "name": "attention_kernel", "pid": 0, "tid": 7, "ts": 55, "dur": 3,
     "args": {"device": 0, "stream": 7, "correlation": 14}},
    {"ph": "X", "cat": "cpu_op", "name": "aten::view", "pid": 9, "tid": 9, "ts": 62, "dur": 2, "args": {"External id": 6}},
    {"ph": "X", "cat": "cpu_op", "name": "aten::relu", "pid": 9, "tid": 9, "ts": 65, "dur": 30,
     "args": {"External id": 3, "Input Dims": [[4, 16]], "Input type": ["float"]}},
    {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 9, "tid": 9, "ts": 70, "dur": 2,
     "args": {"External id": 3, "correlation": 13, "kernel": "relu_kernel"}}
  ]})J";
  auto run = import_pair(R"J({"traceEvents": [
    {"ph": "X", "cat": "cuda_runtime", "name": "cudaGraphLaunch", "pid": 9, "tid": 9, "ts": 1010, "dur": 5,
     "args": {"correlation": 500}},
    {"ph": "X", "cat": "cpu_op", "name": "aten::mul", "pid": 9, "tid": 9, "ts": 1020, "dur": 10,
     "args": {"External id": 40, "Input Dims": [[4, 16], [4, 16]], "Input type": ["float", "float"]}},
    {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 9, "tid": 9, "ts": 1022, "dur": 2,
     "args": {"External id": 40, "correlation": 501}},
    {"ph": "X", "cat": "cuda_runtime", "name": "cudaGraphLaunch", "pid": 9, "tid": 9, "ts": 1040, "dur": 5,
     "args": {"correlation": 502}},
    {"ph": "X", "cat": "kernel", "name": "gemm", "pid": 0, "tid": 7, "ts": 1100, "dur": 10,
     "args": {"device": 0, "stream": 7, "correlation": 500, "graph id": 1, "graph node id": 1}},
    {"ph": "X", "cat": "kernel", "name": "attention_kernel", "pid": 0, "tid": 7, "ts": 1111, "dur": 3,
     "args": {"device": 0, "stream": 7, "correlation": 501}},
    {"ph": "X", "cat": "kernel", "name": "relu_kernel", "pid": 0, "tid": 7, "ts": 1120, "dur": 3,
     "args": {"device": 0, "stream": 7, "correlation": 502, "graph id": 2, "graph node id": 1}}
  ]})J",
                         capture);
  ASSERT_TRUE(run.ok()) << run.status().message();
  std::map<std::string, int> calls;
  double mul_bytes = 0;
  for (const auto& op : run->ops) {
    ++calls[op.name];
    if (op.name == "aten::mul") mul_bytes += op.bytes_read + op.bytes_written;
  }
  EXPECT_EQ(calls["aten::mul"], 1);  // the execution run's; the capture's eager one is left out
  EXPECT_EQ(calls["aten::linear"], 1);
  EXPECT_EQ(calls["aten::relu"], 1);
  EXPECT_EQ(calls["aten::view"], 0);  // between the pieces: eager too
  EXPECT_DOUBLE_EQ(mul_bytes, 3 * 4 * 16 * 4);
  EXPECT_EQ(testing::issue_count(*run, QualityCode::capture_ops_outside_region), 3);
  EXPECT_EQ(testing::issue_count(*run, QualityCode::graph_replay_matched), 2);
}

TEST(GraphCapture, CaptureWithoutKernelNamesMatchesByOrderAndSaysSo) {
  std::string capture = kCaptureTrace;
  for (const char* name : {", \"kernel\": \"gemm\"", ", \"kernel\": \"relu_kernel\""}) {
    capture.erase(capture.find(name), std::string(name).size());
  }
  auto run = import_pair(R"J({"traceEvents": [
    {"ph": "X", "cat": "cuda_runtime", "name": "cudaGraphLaunch", "pid": 9, "tid": 9, "ts": 1010, "dur": 5,
     "args": {"correlation": 500}},
    {"ph": "X", "cat": "kernel", "name": "gemm", "pid": 0, "tid": 7, "ts": 1100, "dur": 10,
     "args": {"device": 0, "stream": 7, "correlation": 500}},
    {"ph": "X", "cat": "kernel", "name": "relu_kernel", "pid": 0, "tid": 7, "ts": 1111, "dur": 3,
     "args": {"device": 0, "stream": 7, "correlation": 500}}
  ]})J",
                         capture);
  ASSERT_TRUE(run.ok()) << run.status().message();
  EXPECT_EQ(testing::issue_count(*run, QualityCode::graph_replay_matched_by_order), 2);
  ASSERT_EQ(run->kernels.size(), 2U);
  EXPECT_EQ(op_by_id(*run, run->kernels[0].op_id)->name, "aten::linear");
  EXPECT_EQ(op_by_id(*run, run->kernels[1].op_id)->name, "aten::relu");
}

TEST(GraphCapture, OnlyPyTorchProfilerTracesTakeACapture) {
  auto run = import_with_capture(testing::fixture("ncu/leleucas__bert_torch_nsight.csv"),
                                 testing::fixture(kCapture));
  ASSERT_FALSE(run.ok());
  EXPECT_NE(run.status().message().find("--graph-capture applies to PyTorch profiler traces"),
            std::string::npos)
      << run.status().message();
  run = import_with_capture(testing::fixture(kExecution),
                            testing::fixture("ncu/leleucas__bert_torch_nsight.csv"));
  ASSERT_FALSE(run.ok());
  EXPECT_NE(run.status().message().find("a graph capture must be a PyTorch profiler trace"),
            std::string::npos)
      << run.status().message();
}

}  // namespace
}  // namespace flopscope
