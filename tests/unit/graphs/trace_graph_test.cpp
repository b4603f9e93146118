// The graph of an imported trace (graphs/trace_graph.h): top-level ops in the order they ran, each in its
// module's frame with the kernels it launched; costs per iteration on each clock; bounded by max_nodes.
#include "graphs/trace_graph.h"

#include <gtest/gtest.h>

#include "graphs/dot_writer.h"

namespace flopscope::graphs {
namespace {

// A Kineto-like run: `iterations` x (per layer: aten::linear calling aten::addmm, which launches a GEMM;
// then aten::relu launching an elementwise kernel), with times that differ per iteration.
RunData trace_run(int layers, int iterations) {
  RunData run;
  run.info.source_kind = SourceKind::kKineto;
  run.modules.push_back({1, kNoId, "", "Model"});
  for (int l = 0; l < layers; ++l) run.modules.push_back({2 + l, 1, "layers." + std::to_string(l), "Block"});
  Id id = 1;
  std::int64_t seq = 0, clock = 0;
  auto op = [&](int it, const std::string& name, Id module, Id parent, std::int64_t dur, double flops) {
    OpRecord o;
    o.id = id++;
    o.iteration = it;
    o.sequence = seq++;
    o.name = name;
    o.thread = 7;
    o.start_ns = clock;
    o.duration_ns = dur;
    o.module_id = module;
    o.parent_op_id = parent;
    o.depth = parent == kNoId ? 0 : 1;
    o.flops = flops;
    o.flops_source = flops > 0 ? FlopsSource::kFormula : FlopsSource::kNone;
    clock += dur;
    run.ops.push_back(o);
    return o.id;
  };
  auto kernel = [&](int it, const std::string& name, Id launcher, std::int64_t dur) {
    KernelRecord k;
    k.id = static_cast<Id>(run.kernels.size()) + 1;
    k.name = name;
    k.iteration = it;
    k.start_ns = clock;
    k.duration_ns = dur;
    k.op_id = launcher;
    run.kernels.push_back(k);
  };
  for (int it = 0; it < iterations; ++it) {
    for (int l = 0; l < layers; ++l) {
      const Id module = 2 + l;
      // Layer l's linear takes (l + 1) us on the host, plus 100 ns more per iteration.
      Id linear = op(it, "aten::linear", module, kNoId, 1000 * (l + 1) + 100 * it, 0);
      Id addmm = op(it, "aten::addmm", module, linear, 500, 2.0e6 * (l + 1));
      kernel(it, "sm90_xmma_gemm_bf16bf16_bf16f32_f32_tn_n_tilesize128x128x64_warpgroupsize1x1x1", addmm,
             4000 + 10 * it);
      Id relu = op(it, "aten::relu", module, kNoId, 300, 0);
      kernel(it, "vectorized_elementwise_kernel<relu>", relu, 200);
    }
  }
  return run;
}

const OpNode* find(const OpGraph& g, const std::string& kind, const std::string& module, int ordinal = 0) {
  for (const auto& n : g.nodes)
    if (n.kind == kind && n.module_path == module && n.ordinal == ordinal) return &n;
  return nullptr;
}

TEST(TraceGraph, TopLevelOpsAndTheirKernelsInTheirModules) {
  RunData run = trace_run(3, 4);
  OpGraph g = trace_op_graph(run, summarize(run));
  // 3 layers x (linear, GEMM, relu, elementwise); the nested addmm is inside linear, not a node.
  ASSERT_EQ(g.nodes.size(), 12u);
  EXPECT_EQ(find(g, "aten::addmm", "layers.0"), nullptr);
  const OpNode* linear = find(g, "aten::linear", "layers.2");
  ASSERT_NE(linear, nullptr);
  // Host time: the median over the 4 iterations of 3000 + 100 * it (3150); FLOPs: the nested addmm's.
  EXPECT_DOUBLE_EQ(linear->cost.time_ns, 3150);
  EXPECT_DOUBLE_EQ(linear->cost.flops, 6.0e6);
  EXPECT_STREQ(linear->cost.clock, "host");
  const OpNode* gemm = find(g, kKernelKind, "layers.2");
  ASSERT_NE(gemm, nullptr);
  EXPECT_NE(gemm->label.find("tilesize128x128x64"), std::string::npos);
  EXPECT_DOUBLE_EQ(gemm->cost.time_ns, 4015);  // device time, median of 4000..4030
  EXPECT_STREQ(gemm->cost.clock, "device");
  EXPECT_FALSE(gemm->cost.flops_known);  // no counters: unknown, not zero
  EXPECT_EQ(g.module_types.at("layers.1"), "Block");
  EXPECT_NE(g.note.find("no data flow"), std::string::npos);
  EXPECT_NE(g.note.find("of 4)"), std::string::npos);
}

TEST(TraceGraph, EdgesFollowTheOrderOpsRanAndLaunches) {
  RunData run = trace_run(2, 1);
  OpGraph g = trace_op_graph(run, summarize(run));
  ASSERT_EQ(g.nodes.size(), 8u);
  std::size_t then = 0, launch = 0;
  for (const auto& e : g.edges) {
    const OpNode& src = g.nodes[static_cast<std::size_t>(e.src)];
    const OpNode& dst = g.nodes[static_cast<std::size_t>(e.dst)];
    if (e.label == "launch") {
      ++launch;
      EXPECT_EQ(dst.kind, kKernelKind);
      EXPECT_EQ(src.module_path, dst.module_path);
    } else {
      ++then;
      EXPECT_NE(src.kind, kKernelKind);
      EXPECT_NE(dst.kind, kKernelKind);
      EXPECT_LT(e.src, e.dst);
    }
  }
  EXPECT_EQ(launch, 4u);
  EXPECT_EQ(then, 3u);  // linear, relu, linear, relu in one chain
}

TEST(TraceGraph, BoundedByHostTimeWithOneNodeForTheRest) {
  RunData run = trace_run(200, 2);  // 800 nodes
  OpGraph g = trace_op_graph(run, summarize(run), 41);
  ASSERT_LE(g.nodes.size(), 41u);
  const OpNode& more = g.nodes.back();
  ASSERT_EQ(more.kind, kMoreKind);
  EXPECT_EQ(more.module_path, "");
  // 20 kept ops with their kernels (40 nodes): the slowest linears, layers 180..199, each with its GEMM
  // (every relu takes less host time); the other 380 ops and 380 kernels are counted in one node.
  EXPECT_NE(find(g, "aten::linear", "layers.199"), nullptr);
  EXPECT_NE(find(g, "aten::linear", "layers.180"), nullptr);
  EXPECT_EQ(find(g, "aten::linear", "layers.179"), nullptr);
  EXPECT_EQ(find(g, "aten::relu", "layers.199"), nullptr);
  EXPECT_NE(more.label.find("380 more ops and 380 kernels"), std::string::npos) << more.label;
  double kept_time = 0, all_time = 0;
  for (const auto& n : g.nodes)
    if (n.kind != kKernelKind && n.kind != kMoreKind) kept_time += n.cost.time_ns;
  for (const auto& n : trace_op_graph(run, summarize(run), 10000).nodes)
    if (n.kind != kKernelKind) all_time += n.cost.time_ns;
  EXPECT_NEAR(kept_time + more.cost.time_ns, all_time, 1e-6);
  EXPECT_NE(g.note.find("the 20 ops with the most host time"), std::string::npos) << g.note;
  for (const auto& e : g.edges) {
    EXPECT_NE(g.nodes[static_cast<std::size_t>(e.src)].kind, kMoreKind);
    EXPECT_NE(g.nodes[static_cast<std::size_t>(e.dst)].kind, kMoreKind);
  }
}

// A torch.compile region launches hundreds of kernels from one op: the op shows its longest few, each
// matched across iterations by its place among the kernels of its name (not among those drawn).
TEST(TraceGraph, AnOpShowsItsLongestKernels) {
  RunData run = trace_run(1, 2);
  for (const OpRecord& op : std::vector<OpRecord>(run.ops)) {
    if (op.name != "aten::addmm") continue;
    for (int j = 0; j < 20; ++j) {
      KernelRecord k;
      k.id = static_cast<Id>(run.kernels.size()) + 1;
      k.name = "triton_fused";
      k.iteration = op.iteration;
      k.start_ns = op.start_ns + 10 + j;
      k.duration_ns = 100 * j + op.iteration;  // the last ones are the longest
      k.op_id = op.id;
      run.kernels.push_back(k);
    }
  }
  OpGraph g = trace_op_graph(run, summarize(run));
  std::size_t triton = 0;
  for (const auto& n : g.nodes) triton += n.label == "triton_fused" ? 1 : 0;
  EXPECT_EQ(triton, 7u);  // 8 with the GEMM, the longest of 21
  const OpNode* first = nullptr;
  for (const auto& n : g.nodes)
    if (!first && n.label == "triton_fused") first = &n;
  ASSERT_NE(first, nullptr);
  EXPECT_DOUBLE_EQ(first->cost.time_ns, 1300.5);  // the 14th triton kernel: median of 1300 and 1301 ns
  EXPECT_NE(g.note.find("at most 8 kernels an op (its longest), 13 kernels not drawn"), std::string::npos)
      << g.note;
}

TEST(TraceGraph, DotLabelsSayEachThingOnceWithTheirClock) {
  RunData run = trace_run(1, 2);
  std::string dot = write_dot(collapse(trace_op_graph(run, summarize(run)), kOpLevel));
  EXPECT_NE(dot.find(" host"), std::string::npos);
  EXPECT_NE(dot.find(" device"), std::string::npos);
  EXPECT_NE(dot.find("no data flow"), std::string::npos);
  // The kernel name is cut in the middle: its start and its distinguishing end stay.
  EXPECT_NE(dot.find("sm90_xmma_gemm_bf16bf16_bf16f~warpgroupsize1x1x1"), std::string::npos) << dot;
  EXPECT_EQ(dot.find("_tn_n_tilesize128x128x64_"), std::string::npos);
}

TEST(TraceGraph, ANodeLabelNamingItsOpIsNotRepeated) {
  OpGraph g;
  OpNode n;
  n.kind = "aten::linear";
  n.label = "linear";
  g.nodes.push_back(n);
  n.kind = "input";
  n.label = "tokens";
  g.nodes.push_back(n);
  std::string dot = write_dot(collapse(g, kOpLevel));
  EXPECT_EQ(dot.find("linear linear"), std::string::npos) << dot;
  EXPECT_NE(dot.find("label=\"linear\""), std::string::npos) << dot;
  EXPECT_NE(dot.find("label=\"input tokens\""), std::string::npos) << dot;
}

TEST(TraceGraph, ARunWithoutOpsHasNoGraph) {
  RunData run;
  run.info.source_kind = SourceKind::kKineto;
  EXPECT_TRUE(trace_op_graph(run, summarize(run)).nodes.empty());
  EXPECT_TRUE(records_no_graph(SourceKind::kNsys));
  EXPECT_FALSE(records_no_graph(SourceKind::kTorchCpu));
}

}  // namespace
}  // namespace flopscope::graphs
