// Built without the TorchScript graph extractor: a run without a stored graph stays without one.
#include "gui/models/run_graph.h"

namespace flopscope::gui {

Status complete_graph_from_source(RunData& run, const std::string& run_path) {
  if (!run.graph_nodes.empty()) return {};
  return Unsupported(run_path + ": no stored graph, and this build cannot extract one (no LibTorch)");
}

}  // namespace flopscope::gui
