// Linked instead of profile_model.cpp when LibTorch is not built.
#include "collector/torch/profile_model.h"

namespace flopscope {

bool model_profiling_available() {
  return false;
}

StatusOr<TorchProfile> profile_model(const ProfileModelOptions& options) {
  return Unsupported(
      options.torch.model_path +
      ": this flopscope was built without LibTorch, so it cannot profile models; profile it with a "
      "flopscope that has LibTorch (`flopscope profile MODEL --input ... -o run.db`) and use the "
      "run database");
}

}  // namespace flopscope
