// Finds and loads libflopscope-torch.so once per process, for every front end (CLI, GUI, tests).
#pragma once

#include <string>
#include <vector>

#include "collector/torch/torch_plugin.h"
#include "db/model/status.h"

namespace flopscope {

// The plugin, loaded on the first call (thread-safe) and kept until the process exits. When it cannot be
// loaded every call returns the same Unavailable status, "LibTorch support not available (WHY)", where
// WHY is dlerror()'s text or the places searched.
StatusOr<const TorchPlugin*> torch_plugin();

// Where the plugin is looked for, in order: $FLOPSCOPE_TORCH_PLUGIN alone when it is set; else beside
// the executable, in ../lib and ../lib/flopscope from it (installed layouts), then in the build tree.
std::vector<std::string> torch_plugin_candidates();

}  // namespace flopscope
