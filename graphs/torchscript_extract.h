// In-process graph extraction, for LibTorch code only (the plugin and its tests); front ends call
// extract_torchscript_graph (extract.h), which reaches these through libflopscope-torch.so.
#pragma once

#include <string>

#include "graphs/extract.h"

namespace torch::jit {
struct Module;
}

namespace flopscope::graphs {

// Loads `model_path` and extracts its graph (see extract_torchscript_graph).
StatusOr<ExtractedGraph> extract_graph_from_file(const std::string& model_path,
                                                 const RunData* profiled = nullptr);

// The graph of a module already loaded from `model_path` (the profile pipeline's, so a model is loaded
// once); `model_path` names it in errors.
StatusOr<ExtractedGraph> extract_graph_from_module(const torch::jit::Module& module,
                                                   const std::string& model_path,
                                                   const RunData* profiled = nullptr);

}  // namespace flopscope::graphs
