// Schema variants on small hand-written traces: the 2021 schema, Triton launches through the driver API,
// CUDA graph replays, TorchScript module hierarchies.
#include <gtest/gtest.h>

#include "db/model/sha256.h"
#include "import_test_util.h"

namespace flopscope {
namespace {

StatusOr<RunData> import_text(const std::string& name, const std::string& text) {
  auto path = testing::temp_dir() + "/" + name;
  testing::write_text(path, text);
  return testing::import_file(path);
}

TEST(KinetoVariants, Schema2021WithLegacyNamesAndStringIds) {
  auto run = import_text("legacy.json", R"J({"schemaVersion": 1, "traceEvents": [
    {"ph": "X", "cat": "Operator", "name": "aten::conv2d", "pid": "25738", "tid": "25738", "ts": 100, "dur": 50,
     "args": {"external id": 7, "Input Dims": [[1, 3, 8, 8], [4, 3, 3, 3], [4], [], [], [], []],
              "Input type": ["float", "float", "float", "ScalarList", "ScalarList", "ScalarList", "Int"]}},
    {"ph": "X", "cat": "Runtime", "name": "cudaLaunchKernel", "pid": "25738", "tid": "25738", "ts": 110, "dur": 5,
     "args": {"external id": 7, "correlation": 42}},
    {"ph": "X", "cat": "Kernel", "name": "implicit_gemm", "pid": 0, "tid": "stream 7", "ts": 200, "dur": 10,
     "args": {"external id": 7, "device": 0, "stream": 7, "correlation": 42, "grid": [1, 1, 1], "block": [32, 1, 1]}},
    {"ph": "X", "cat": "Memcpy", "name": "Memcpy HtoD", "pid": 0, "tid": "stream 7", "ts": 300, "dur": 2,
     "args": {"device": 0, "stream": 7, "correlation": 43, "bytes": 4096}}
  ]})J");
  ASSERT_TRUE(run.ok()) << run.status().message();
  ASSERT_EQ(run->ops.size(), 1U);
  EXPECT_EQ(run->ops[0].name, "aten::conv2d");
  EXPECT_EQ(run->ops[0].thread, 25738);
  EXPECT_EQ(run->ops[0].args[0].dtype, "float32");
  EXPECT_EQ(run->ops[0].args[0].shape, (std::vector<std::int64_t>{1, 3, 8, 8}));
  ASSERT_EQ(run->kernels.size(), 2U);
  EXPECT_EQ(run->kernels[0].op_id, 0);
  EXPECT_EQ(run->kernels[0].stream, 7);
  EXPECT_EQ(run->kernels[1].kind, KernelKind::kMemcpy);
  EXPECT_DOUBLE_EQ(run->kernels[1].bytes, 4096);
  EXPECT_EQ(run->kernels[1].op_id, kNoId);  // no launch in the trace: an orphan, still counted
}

// Keys are read as written unless they hold an escape: escaped keys still name the same fields, and a key
// that only starts like a wanted one is not it.
TEST(KinetoVariants, EscapedKeysNameTheSameFields) {
  auto run = import_text("escaped_keys.json", R"J({"traceEvents": [
    {"\u0070h": "X", "c\u0061t": "cpu_op", "name": "aten::mm", "pid": 1, "tid": 1, "ts": 100, "dur": 50,
     "args": {"External\u0020id": 7}},
    {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 1, "tid": 1, "ts": 110, "dur": 5,
     "args": {"External id": 7, "correlat\u0069on": 42}},
    {"ph": "X", "cat": "kernel", "name": "gemm", "pid": 0, "tid": 7, "ts": 200, "dur": 10,
     "args": {"device": 0, "stream": 7, "correlation": 42, "grid\\": [9, 9, 9], "grid": [2, 1, 1]}}
  ]})J");
  ASSERT_TRUE(run.ok()) << run.status().message();
  ASSERT_EQ(run->ops.size(), 1U);
  EXPECT_EQ(run->ops[0].name, "aten::mm");
  ASSERT_EQ(run->kernels.size(), 1U);
  EXPECT_EQ(run->kernels[0].op_id, run->ops[0].id);
  EXPECT_EQ(run->kernels[0].grid, (std::array<int, 3>{2, 1, 1}));
}

TEST(KinetoVariants, TritonDriverLaunchesAndCudaGraphReplays) {
  auto run = import_text("compiled.json", R"J({"traceEvents": [
    {"ph": "X", "cat": "cpu_op", "name": "triton_poi_fused_add_0", "pid": 1, "tid": 1, "ts": 10, "dur": 20,
     "args": {"External id": 5, "kernel_backend": "triton", "grid": "grid(1024)", "num_warps": 4}},
    {"ph": "X", "cat": "cuda_driver", "name": "cuLaunchKernel", "pid": 1, "tid": 1, "ts": 12, "dur": 3,
     "args": {"External id": 5, "cbid": 307, "correlation": 9}},
    {"ph": "X", "cat": "kernel", "name": "triton_poi_fused_add_0", "pid": 0, "tid": 7, "ts": 40, "dur": 2,
     "args": {"External id": 5, "device": 0, "stream": 7, "correlation": 9, "grid": [1024, 1, 1], "block": [128, 1, 1]}},
    {"ph": "X", "cat": "cpu_op", "name": "CUDAGraph::replay", "pid": 1, "tid": 1, "ts": 50, "dur": 30,
     "args": {"External id": 6}},
    {"ph": "X", "cat": "cuda_runtime", "name": "cudaGraphLaunch", "pid": 1, "tid": 1, "ts": 52, "dur": 10,
     "args": {"External id": 6, "cbid": 311, "correlation": 20}},
    {"ph": "X", "cat": "kernel", "name": "gemm_a", "pid": 0, "tid": 7, "ts": 70, "dur": 4,
     "args": {"External id": 6, "device": 0, "stream": 7, "correlation": 20, "graph id": 3, "graph node id": 11}},
    {"ph": "X", "cat": "kernel", "name": "gemm_b", "pid": 0, "tid": 7, "ts": 75, "dur": 4,
     "args": {"External id": 6, "device": 0, "stream": 7, "correlation": 20, "graph id": 3, "graph node id": 12}}
  ]})J");
  ASSERT_TRUE(run.ok()) << run.status().message();
  ASSERT_EQ(run->kernels.size(), 3U);
  EXPECT_EQ(run->ops[static_cast<std::size_t>(run->kernels[0].op_id)].name, "triton_poi_fused_add_0");
  // Replays belong to the graph launch, an op of its own under the op that replayed the graph.
  for (int i : {1, 2}) {
    const auto& k = run->kernels[static_cast<std::size_t>(i)];
    const auto& launch = run->ops[static_cast<std::size_t>(k.op_id)];
    EXPECT_EQ(launch.name, "cudaGraphLaunch");
    ASSERT_NE(launch.parent_op_id, kNoId);
    EXPECT_EQ(run->ops[static_cast<std::size_t>(launch.parent_op_id)].name, "CUDAGraph::replay");
    EXPECT_EQ(k.graph_id, 3);
    EXPECT_EQ(k.graph_node_id, 10 + i);
  }
}

TEST(KinetoVariants, TorchScriptModuleHierarchyGivesModulePaths) {
  auto run = import_text("script.json", R"J({"traceEvents": [
    {"ph": "X", "cat": "cpu_op", "name": "aten::linear", "pid": 1, "tid": 1, "ts": 10, "dur": 20,
     "args": {"External id": 1, "Module Hierarchy": "TOP(Net)::forward.encoder(Encoder)::forward.0(Block)::forward",
              "Input Dims": [[2, 8], [4, 8], [4]], "Input type": ["float", "float", "float"]}},
    {"ph": "X", "cat": "cpu_op", "name": "aten::relu", "pid": 1, "tid": 1, "ts": 40, "dur": 5,
     "args": {"External id": 2, "Module Hierarchy": "TOP(Net)::forward"}}
  ]})J");
  ASSERT_TRUE(run.ok()) << run.status().message();
  ASSERT_EQ(run->ops.size(), 2U);
  EXPECT_EQ(testing::module_path(*run, run->ops[0].module_id), "encoder.0");
  EXPECT_EQ(testing::module_path(*run, run->ops[1].module_id), "");
  bool block = false;
  for (const auto& m : run->modules) block |= m.path == "encoder.0" && m.type == "Block";
  EXPECT_TRUE(block);
  EXPECT_EQ(run->ops[0].flops_source, FlopsSource::kFormula);
  EXPECT_DOUBLE_EQ(run->ops[0].flops, 2.0 * 2 * 8 * 4 + 2 * 4);
}

TEST(FileHash, SourceDigestMatchesTheFixtureChecksum) {
  auto path = testing::fixture("kineto/hta__alexnet_a100__benchmark_result_2869224_1695835535_trace.json.gz");
  auto digest = sha256_file(path);
  ASSERT_TRUE(digest.ok());
  EXPECT_EQ(*digest,
            "b9febb1abc8cc729a2890fb6a4171de9867ba72c944437ee046067e7c89912dc");  // tests/data/SHA256SUMS
}

}  // namespace
}  // namespace flopscope
