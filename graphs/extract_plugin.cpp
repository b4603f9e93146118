// Built instead of extract_unavailable.cpp when LibTorch is found: extraction runs inside the plugin.
#include "collector/torch/torch_plugin_loader.h"
#include "graphs/extract.h"

namespace flopscope::graphs {

StatusOr<ExtractedGraph> extract_torchscript_graph(const std::string& model_path, const RunData* profiled) {
  StatusOr<const TorchPlugin*> plugin = torch_plugin();
  if (!plugin.ok()) return plugin.status().WithContext(model_path);
  return (*plugin)->extract_graph(model_path, profiled);
}

}  // namespace flopscope::graphs
