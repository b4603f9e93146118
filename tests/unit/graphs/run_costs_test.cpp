#include "graphs/run_costs.h"

#include <gtest/gtest.h>

#include "graphs/extract.h"

namespace flopscope::graphs {
namespace {

OpRecord op(Id id, int iteration, std::int64_t seq, const char* name, Id module, Id parent, double flops,
            std::int64_t duration, FlopsSource source) {
  OpRecord r;
  r.id = id;
  r.iteration = iteration;
  r.sequence = seq;
  r.name = name;
  r.module_id = module;
  r.parent_op_id = parent;
  r.flops = flops;
  r.bytes_read = flops / 10;
  r.duration_ns = duration;
  r.flops_source = source;
  return r;
}

// Module 1 "attn" runs linear (dispatching to addmm, which carries the count) then matmul, twice per
// iteration for linear; two iterations.
RunData sample_run() {
  RunData run;
  run.modules = {{0, kNoId, "", "Model"}, {1, 0, "attn", "Attention"}};
  Id id = 0;
  std::int64_t seq = 0;
  for (int it = 0; it < 2; ++it) {
    Id lin0 = id;
    run.ops.push_back(op(id++, it, seq++, "aten::linear", 1, kNoId, 0, 100 + it * 20, FlopsSource::kNone));
    run.ops.push_back(op(id++, it, seq++, "aten::addmm", 1, lin0, 1000, 90, FlopsSource::kFormula));
    Id lin1 = id;
    run.ops.push_back(op(id++, it, seq++, "aten::linear", 1, kNoId, 0, 50, FlopsSource::kNone));
    run.ops.push_back(op(id++, it, seq++, "aten::addmm", 1, lin1, 3000, 40, FlopsSource::kFormula));
    run.ops.push_back(op(id++, it, seq++, "aten::matmul", 1, kNoId, 500, 10, FlopsSource::kFormula));
    run.ops.back().args = {{true, "Float", {1, 4, 8}, ""}, {true, "float32", {1, 8, 2}, ""}};
    run.ops.push_back(op(id++, it, seq++, "aten::softmax", 1, kNoId, 0, 7, FlopsSource::kNone));
  }
  return run;
}

std::vector<GraphNode> sample_nodes() {
  return {{0, "aten::linear", "", 1, "attn", ""},
          {1, "aten::linear", "", 1, "attn", ""},
          {2, "aten::matmul", "", 1, "attn", ""},
          {3, "aten::gelu", "", 1, "attn", ""},
          {4, "aten::softmax", "", 1, "attn", ""}};
}

TEST(RunCosts, NodesMatchOutermostCallsByModuleKindAndOrdinal) {
  RunData run = sample_run();
  auto nodes = sample_nodes();
  OpGraph g = make_op_graph(nodes, {}, run.modules);
  CostMatch m = attach_run_costs(g, run);
  EXPECT_EQ(m.matched, 4u);
  EXPECT_EQ(m.unmatched, 1u);  // gelu never ran
  EXPECT_TRUE(g.has_costs);
  EXPECT_DOUBLE_EQ(g.nodes[0].cost.flops, 1000);   // the nested addmm rolls up into linear #0
  EXPECT_DOUBLE_EQ(g.nodes[0].cost.time_ns, 110);  // median of 100 and 120
  EXPECT_DOUBLE_EQ(g.nodes[1].cost.flops, 3000);
  EXPECT_DOUBLE_EQ(g.nodes[1].cost.bytes, 300);
  EXPECT_DOUBLE_EQ(g.nodes[2].cost.flops, 500);
  EXPECT_FALSE(g.nodes[3].cost.known);
  EXPECT_TRUE(g.nodes[0].cost.flops_known);
  // softmax ran (its time is known) but no formula counted it: FLOPs unknown, not zero.
  EXPECT_TRUE(g.nodes[4].cost.known);
  EXPECT_FALSE(g.nodes[4].cost.flops_known);
  EXPECT_DOUBLE_EQ(g.nodes[4].cost.time_ns, 7);
}

TEST(RunCosts, LoopBodyNodeCarriesEveryTrip) {
  // One graph node (a loop body's linear) and three calls per iteration: the node shows all three.
  RunData run;
  run.modules = {{0, kNoId, "", "Model"}, {1, 0, "fc", "Linear"}};
  Id id = 0;
  for (int it = 0; it < 2; ++it) {
    for (int trip = 0; trip < 3; ++trip, ++id)
      run.ops.push_back(op(id, it, id, "aten::linear", 1, kNoId, 100, 10 + it, FlopsSource::kFormula));
  }
  OpGraph g = make_op_graph({{0, "aten::linear", "", 1, "fc", ""}}, {}, run.modules);
  attach_run_costs(g, run);
  EXPECT_DOUBLE_EQ(g.nodes[0].cost.flops, 300);     // per iteration: three trips
  EXPECT_DOUBLE_EQ(g.nodes[0].cost.time_ns, 31.5);  // median of the iterations' sums, 30 and 33
  // Two nodes and three calls: not divisible, so only the first two calls are placed (no guess).
  OpGraph two = make_op_graph({{0, "aten::linear", "", 1, "fc", ""}, {1, "aten::linear", "", 1, "fc", ""}},
                              {}, run.modules);
  attach_run_costs(two, run);
  EXPECT_DOUBLE_EQ(two.nodes[0].cost.flops, 100);
  EXPECT_DOUBLE_EQ(two.nodes[1].cost.flops, 100);
}

TEST(RunCosts, ProfiledShapesLabelEdgesAndOutputs) {
  RunData run = sample_run();
  auto nodes = sample_nodes();
  std::vector<GraphEdge> edges = {{0, 2, ""}, {1, 2, ""}};
  apply_profiled_shapes(nodes, edges, {0, 1}, {1, 1, 2, 1, 1}, run);
  EXPECT_EQ(edges[0].label, "float32[1,4,8]");  // c10's "Float" normalised
  EXPECT_EQ(edges[1].label, "float32[1,8,2]");
  EXPECT_EQ(nodes[0].output_shapes, "float32[1,4,8]");
  EXPECT_EQ(nodes[1].output_shapes, "float32[1,8,2]");
  EXPECT_EQ(nodes[2].output_shapes, "");
}

TEST(RunCosts, OutputShapesComeFromWhatForwardReturned) {
  // An `if` returns linear's or gelu's result; the run took the linear. No consumer recorded the shape.
  RunData run = sample_run();
  std::vector<GraphNode> nodes = {{0, "aten::linear", "", 1, "attn", ""},
                                  {1, "aten::gelu", "", 1, "attn", ""},
                                  {2, "output", "", kNoId, "", ""}};
  std::vector<GraphEdge> edges = {{0, 2, ""}, {1, 2, ""}};
  OpArg out{true, "float32", {2, 8}, ""};
  apply_output_shapes(nodes, edges, {out, out, out}, run);  // three tensors, two edges: nothing guessed
  EXPECT_EQ(nodes[0].output_shapes, "");
  apply_output_shapes(nodes, edges, {out}, run);
  EXPECT_EQ(nodes[0].output_shapes, "float32[2,8]");
  EXPECT_EQ(edges[0].label, "float32[2,8]");
  EXPECT_EQ(nodes[1].output_shapes, "");  // gelu never ran
  EXPECT_EQ(edges[1].label, "");
}

TEST(RunCosts, ExtraLeadingArgumentsAreSkipped) {
  RunData run = sample_run();
  for (auto& op : run.ops) {
    if (op.name == "aten::matmul") op.args.insert(op.args.begin(), OpArg{true, "float32", {9, 9}, ""});
  }
  auto nodes = sample_nodes();
  std::vector<GraphEdge> edges = {{0, 2, ""}, {1, 2, ""}};
  apply_profiled_shapes(nodes, edges, {0, 1}, {1, 1, 2, 1, 1}, run);
  EXPECT_EQ(edges[0].label, "float32[1,4,8]");
  EXPECT_EQ(edges[1].label, "float32[1,8,2]");
}

}  // namespace
}  // namespace flopscope::graphs
