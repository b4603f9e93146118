// Built instead of torchscript_extract.cpp when LibTorch is not found.
#include "graphs/extract.h"

namespace flopscope::graphs {

StatusOr<ExtractedGraph> extract_torchscript_graph(const std::string& model_path, const RunData*) {
  return Unsupported(model_path +
                     ": this flopscope was built without LibTorch, so it cannot read TorchScript "
                     "models; draw a run database (.db) instead");
}

}  // namespace flopscope::graphs
