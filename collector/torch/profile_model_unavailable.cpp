// Linked instead of profile_model.cpp when LibTorch is not built.
#include "collector/torch/ablation.h"
#include "collector/torch/profile_model.h"

namespace flopscope {
namespace {

Status unavailable(const std::string& model_path) {
  return Unsupported(
      model_path +
      ": this flopscope was built without LibTorch, so it cannot profile models; profile it with a "
      "flopscope that has LibTorch (`flopscope profile MODEL --input ... -o run.db`) and use the "
      "run database");
}

}  // namespace

Status check_model_profiling(const std::string& model_path) {
  return unavailable(model_path);
}

StatusOr<TorchProfile> profile_model(const ProfileModelOptions& options) {
  return unavailable(options.torch.model_path);
}

StatusOr<AblationRun> ablate_model(const AblationOptions& options) {
  return unavailable(options.model_path);
}

}  // namespace flopscope
