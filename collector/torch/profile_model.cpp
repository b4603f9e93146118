// The front ends' side of the profile pipeline: it runs inside libflopscope-torch.so (profile_pipeline.cpp),
// reached through the plugin table so that no front end links LibTorch.
#include "collector/torch/profile_model.h"

#include "collector/torch/ablation.h"
#include "collector/torch/torch_plugin_loader.h"

namespace flopscope {

Status check_model_profiling(const std::string& model_path) {
  StatusOr<const TorchPlugin*> plugin = torch_plugin();
  return plugin.ok() ? Status::Ok() : plugin.status().WithContext(model_path);
}

StatusOr<TorchProfile> profile_model(const ProfileModelOptions& options) {
  StatusOr<const TorchPlugin*> plugin = torch_plugin();
  if (!plugin.ok()) return plugin.status().WithContext(options.torch.model_path);
  return (*plugin)->profile_model(options);
}

StatusOr<AblationRun> ablate_model(const AblationOptions& options) {
  StatusOr<const TorchPlugin*> plugin = torch_plugin();
  if (!plugin.ok()) return plugin.status().WithContext(options.model_path);
  return (*plugin)->ablate_model(options);
}

}  // namespace flopscope
