// Extraction joined with a real profiled run of the same model: the module paths and op kinds the
// extractor records must be the ones the collector records, so graph nodes find their calls.
#include <gtest/gtest.h>

#include "analyzer/op_costs.h"
#include "analyzer/summary.h"
#include "collector/torch/torch_profiler.h"
#include "graphs/collapse.h"
#include "graphs/extract.h"
#include "graphs/run_costs.h"

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

  auto extracted = extract_torchscript_graph(options.model_path, &run);
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

}  // namespace
}  // namespace flopscope::graphs
