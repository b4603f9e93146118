// Extraction joined with a real profiled run of the same model: the module paths and op kinds the
// extractor records must be the ones the collector records, so graph nodes find their calls.
#include <gtest/gtest.h>

#include "analyzer/op_costs.h"
#include "analyzer/summary.h"
#include "collector/torch/profile_pipeline.h"
#include "collector/torch/torch_profiler.h"
#include "graphs/collapse.h"
#include "graphs/run_costs.h"
#include "graphs/torchscript_extract.h"

namespace flopscope::graphs {
namespace {

TEST(ProfiledGraph, NodesMatchCollectorCallsAndGetShapesAndCosts) {
  TorchProfileOptions options;
  options.model_path = std::string(GRAPHS_SAMPLES_DIR) + "/sonnet-mini-v1.pt";
  auto specs = parse_input_specs({"int64[1,64]@0:512"});
  ASSERT_TRUE(specs.ok()) << specs.status().message();
  options.inputs = *specs;
  options.iterations = 2;
  options.warmup = 1;
  auto profile = profile_torchscript(options);
  ASSERT_TRUE(profile.ok()) << profile.status().message();
  RunData& run = profile->run;
  assign_op_costs(run.ops);

  auto extracted = extract_graph_from_file(options.model_path, &run);
  ASSERT_TRUE(extracted.ok()) << extracted.status().message();
  OpGraph g = make_op_graph(extracted->nodes, extracted->edges, extracted->modules);
  CostMatch m = attach_run_costs(g, run);
  attach_module_costs(g, summarize(run));

  std::size_t ops = 0;
  for (const auto& n : g.nodes) ops += n.kind != "input" && n.kind != "output";
  std::string unmatched;
  for (const auto& n : g.nodes) {
    if (!n.cost.known && n.kind != "input" && n.kind != "output") unmatched += " " + n.identity();
  }
  EXPECT_EQ(m.unmatched, 0u) << "of " << ops << " op nodes:" << unmatched;
  EXPECT_EQ(m.matched, ops);
  // Every linear has its output shape and FLOPs: q_proj of layer 0 is 1x64x64 @ 64x64 (d_model 64, the
  // fixture's setting; 64 tokens).
  for (const auto& n : g.nodes) {
    if (n.module_path == "layers.0.attn.q_proj" && n.kind == "aten::linear") {
      EXPECT_EQ(n.output_shapes, "float32[1,64,64]");
      EXPECT_GE(n.cost.flops, 2.0 * 64 * 64 * 64);  // the matmul; the bias add may be counted too
      EXPECT_LE(n.cost.flops, 2.0 * 64 * 64 * 64 + 2.0 * 64 * 64);
    }
    // The causal mask: torch.ones(n, n, dtype=bool), seen by triu.
    if (n.module_path == "layers.0.attn" && n.kind == "aten::ones") {
      EXPECT_EQ(n.output_shapes, "bool[64,64]");
    }
  }
  std::size_t labelled = 0;
  for (const auto& e : extracted->edges) labelled += !e.label.empty();
  EXPECT_GT(labelled, extracted->edges.size() / 2);

  // Collapsed boxes carry the summary's inclusive module cost.
  ViewGraph v = collapse(g, 3);
  bool found = false;
  for (const auto& n : v.nodes) {
    if (n.module_path != "layers.0.attn") continue;
    found = true;
    ASSERT_TRUE(n.cost.known);
    EXPECT_DOUBLE_EQ(n.cost.flops, g.module_costs.at("layers.0.attn").flops);
    EXPECT_GT(n.cost.flops, 0);
  }
  EXPECT_TRUE(found);
}

// The pipeline loads the model once and extracts the graph from the module that ran: the same nodes, edges
// and shapes as loading the file again for the graph (with the same forward() outputs applied).
TEST(ProfiledGraph, PipelineGraphFromTheRunningModuleEqualsAFreshLoad) {
  ProfileModelOptions options;
  options.torch.model_path = std::string(GRAPHS_SAMPLES_DIR) + "/sonnet-mini-v1.pt";
  auto specs = parse_input_specs({"int64[1,16]@0:512"});
  ASSERT_TRUE(specs.ok()) << specs.status().message();
  options.torch.inputs = *specs;
  options.torch.iterations = 1;
  options.torch.warmup = 0;
  auto profile = run_profile_pipeline(options);
  ASSERT_TRUE(profile.ok()) << profile.status().message();
  const RunData& run = profile->run;
  for (const auto& q : run.quality) EXPECT_NE(q.code, QualityCode::graph_not_extracted) << q.detail;
  auto fresh = extract_graph_from_file(options.torch.model_path, &run);
  ASSERT_TRUE(fresh.ok()) << fresh.status().message();
  // What forward() returned labels the last producers; a fresh load gets it from the same profile.
  apply_output_shapes(fresh->nodes, fresh->edges, profile->outputs, run);
  ASSERT_GT(run.graph_nodes.size(), 10u);
  ASSERT_EQ(run.graph_nodes.size(), fresh->nodes.size());
  std::size_t shaped = 0;
  for (std::size_t i = 0; i < fresh->nodes.size(); ++i) {
    const GraphNode& a = run.graph_nodes[i];
    const GraphNode& b = fresh->nodes[i];
    EXPECT_EQ(a.kind, b.kind) << i;
    EXPECT_EQ(a.module_path, b.module_path) << i;
    EXPECT_EQ(a.output_shapes, b.output_shapes) << i;
    shaped += !a.output_shapes.empty();
  }
  EXPECT_GT(shaped, run.graph_nodes.size() / 2);
  ASSERT_EQ(run.graph_edges.size(), fresh->edges.size());
  for (std::size_t i = 0; i < fresh->edges.size(); ++i) {
    EXPECT_EQ(run.graph_edges[i].src, fresh->edges[i].src) << i;
    EXPECT_EQ(run.graph_edges[i].dst, fresh->edges[i].dst) << i;
    EXPECT_EQ(run.graph_edges[i].label, fresh->edges[i].label) << i;
  }
  // Without the graph the pipeline does not keep the module.
  options.extract_graph = false;
  auto bare = run_profile_pipeline(options);
  ASSERT_TRUE(bare.ok()) << bare.status().message();
  EXPECT_TRUE(bare->run.graph_nodes.empty());
}

}  // namespace
}  // namespace flopscope::graphs
