// The profile pipeline every front end shares (`profile`, `diff A.pt B.pt`, the GUI): load a TorchScript
// model once, run it under the op observer (profile_torchscript), assign FLOPs with the analyzer's one
// nesting rule, record what --activations cost, and extract the computation graph with this run's shapes
// from the same module. Torch-free header: where LibTorch is built, profile_model.cpp forwards to the
// plugin (libflopscope-torch.so, profile_pipeline.cpp); profile_model_unavailable.cpp (chosen at link
// time) says it is not built.
#pragma once

#include <string>

#include "collector/torch/torch_profiler.h"
#include "db/model/status.h"

namespace flopscope {

struct ProfileModelOptions {
  TorchProfileOptions torch;
  bool extract_graph = true;  // a failed extraction is a data-quality warning, not an error
};

// The returned run is what `flopscope profile` writes: ops with FLOPs, data-quality rows, the graph.
StatusOr<TorchProfile> profile_model(const ProfileModelOptions& options);

// A TorchScript archive as users name them (.pt, .pth, .ptl), rather than a run database or a trace.
inline bool is_torchscript_model(const std::string& path) {
  return path.size() > 3 && (path.ends_with(".pt") || path.ends_with(".pth") || path.ends_with(".ptl"));
}

// OK when models can be profiled: LibTorch is built and its plugin loads. Otherwise the error that
// profile_model would return for `model_path`, e.g. "M.pt: LibTorch support not available (...)".
Status check_model_profiling(const std::string& model_path);

}  // namespace flopscope
