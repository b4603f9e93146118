// The one exported symbol of libflopscope-torch.so: the table of what the front ends need from LibTorch.
#include "collector/torch/profile_pipeline.h"
#include "collector/torch/torch_plugin.h"
#include "graphs/torchscript_extract.h"

namespace {

flopscope::StatusOr<flopscope::graphs::ExtractedGraph> extract_graph(const std::string& model_path,
                                                                     const flopscope::RunData* profiled) {
  return flopscope::graphs::extract_graph_from_file(model_path, profiled);
}

}  // namespace

extern "C" __attribute__((visibility("default"))) const flopscope::TorchPlugin* flopscope_torch_plugin() {
  static const flopscope::TorchPlugin plugin{
      .profile_model = &flopscope::run_profile_pipeline,
      .extract_graph = &extract_graph,
      .ablate_model = &flopscope::run_ablation,
  };
  return &plugin;
}
