// The profile pipeline every front end shares (`profile`, `diff A.pt B.pt`, the GUI): run a TorchScript
// model under the op observer (profile_torchscript), assign FLOPs with the analyzer's one nesting rule,
// record what --activations cost, and extract the computation graph with this run's shapes. Torch-free
// header; profile_model.cpp implements it where LibTorch is built, profile_model_unavailable.cpp (chosen
// at link time) says it is not.
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

// False in a build without LibTorch: profile_model then returns Unsupported naming the model.
bool model_profiling_available();

}  // namespace flopscope
