// What the CLI and the GUI need from LibTorch, as a table of functions that libflopscope-torch.so fills.
// The front ends never link LibTorch (Debian's pulls OpenCV and Qt 5 in with it): they dlopen the plugin
// on first use (torch_plugin_loader.h). C++ records cross the boundary, so the plugin must come from the
// same build: the loader checks kTorchPluginAbi and the layout fingerprint before using the table.
#pragma once

#include <cstddef>
#include <string>

#include "collector/torch/ablation.h"
#include "collector/torch/profile_model.h"
#include "graphs/extract.h"

namespace flopscope {

inline constexpr int kTorchPluginAbi = 3;  // 2: RunData carries forward()'s outputs; 3: ablate_model
inline constexpr const char* kTorchPluginFile = "libflopscope-torch.so";
// extern "C" const TorchPlugin* flopscope_torch_plugin(): the one symbol the plugin exports.
inline constexpr const char* kTorchPluginEntry = "flopscope_torch_plugin";

// Changes when a record that crosses the boundary changes size: a stale plugin is refused, not called.
inline constexpr std::size_t torch_plugin_layout() {
  return sizeof(ProfileModelOptions) * 1000003 + sizeof(TorchProfile) * 1009 + sizeof(RunData) * 31 +
         sizeof(graphs::ExtractedGraph) + sizeof(Status) + sizeof(AblationOptions) * 7 +
         sizeof(AblationRun) * 3;
}

struct TorchPlugin {
  int abi = kTorchPluginAbi;
  std::size_t layout = torch_plugin_layout();
  // The profile pipeline: loads the model once, runs it under the op observer, assigns FLOPs, notes the
  // BLAS backend and extracts the computation graph from the same module (profile_model.h).
  StatusOr<TorchProfile> (*profile_model)(const ProfileModelOptions& options) = nullptr;
  // A TorchScript archive's forward graph, with shapes from `profiled` when given (graphs/extract.h).
  StatusOr<graphs::ExtractedGraph> (*extract_graph)(const std::string& model_path,
                                                    const RunData* profiled) = nullptr;
  // The model as it is and with some instances' outputs replaced, on the same inputs (ablation.h).
  StatusOr<AblationRun> (*ablate_model)(const AblationOptions& options) = nullptr;
};

using TorchPluginEntry = const TorchPlugin* (*)();

}  // namespace flopscope
