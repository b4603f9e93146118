#include "collector/torch/profile_pipeline.h"

#include <fmt/format.h>

#include <memory>

#include "analyzer/fused_split.h"
#include "analyzer/op_costs.h"
#include "collector/torch/blas_backend.h"
#include "graphs/extract.h"
#include "graphs/torchscript_extract.h"

namespace flopscope {

StatusOr<TorchProfile> run_profile_pipeline(const ProfileModelOptions& options) {
  // The module that ran is kept for the graph: the archive is read and deserialized once.
  std::shared_ptr<torch::jit::Module> module;
  FS_ASSIGN_OR_RETURN(TorchProfile profile,
                      profile_torchscript(options.torch, options.extract_graph ? &module : nullptr));
  RunData& run = profile.run;
  assign_op_costs(run.ops);
  // Fused ops (nn.TransformerEncoderLayer's fast path): their inner ops go to the submodules they stand for.
  if (FusedSplit split = split_fused_ops(run); split.fused_ops > 0 || split.unsplit_ops > 0) {
    if (split.fused_ops > 0)
      run.quality.emplace_back(
          QualityCode::fused_ops_split, split.fused_ops,
          "aten::_transformer_encoder_layer_fwd: self_attn, linear1, linear2, norm1, norm2");
    if (split.unsplit_ops > 0)
      run.quality.emplace_back(QualityCode::fused_ops_not_split, split.unsplit_ops,
                               "aten::_transformer_encoder_layer_fwd: its cost stays on the encoder layer");
  }
  // Which BLAS the timings describe: stored with the run; the slow reference BLAS is a warning.
  BlasBackend blas = detect_blas_backend();
  if (blas.slow_reference) {
    run.quality.emplace_back(
        QualityCode::reference_blas, 1,
        "LibTorch calls " + blas.detail +
            "; GEMM timings are 5-10x those of OpenBLAS (scripts/install-deps.sh selects it)");
  } else {
    run.quality.emplace_back(QualityCode::blas_backend, 1, blas.name + " " + blas.detail);
  }
  if (options.torch.activations) {
    double forward_ns = 0;
    for (double t : profile.iteration_wall_ns) forward_ns += t;
    run.quality.emplace_back(
        QualityCode::activation_statistics, static_cast<std::int64_t>(run.activations.size()),
        fmt::format("{:.1f} ms computing statistics of {} module calls, {:.1f}% of the measured forward time",
                    profile.activation_cost_ns / 1e6, run.activations.size(),
                    forward_ns > 0 ? 100 * profile.activation_cost_ns / forward_ns : 0.0));
  }
  if (module) {
    // The computation graph, with shapes from this run, for `flopscope graph run.db` and the GUI.
    if (auto graph = graphs::extract_graph_from_module(*module, options.torch.model_path, &run); graph.ok()) {
      run.graph_nodes = std::move(graph->nodes);
      run.graph_edges = std::move(graph->edges);
      graphs::apply_output_shapes(run.graph_nodes, run.graph_edges, profile.outputs, run);
    } else {
      run.quality.emplace_back(QualityCode::graph_not_extracted, 1, graph.status().message());
    }
  }
  return profile;
}

}  // namespace flopscope
