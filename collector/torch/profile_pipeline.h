// The profile pipeline as it runs inside libflopscope-torch.so; front ends reach it through profile_model.
#pragma once

#include "collector/torch/profile_model.h"

namespace flopscope {

StatusOr<TorchProfile> run_profile_pipeline(const ProfileModelOptions& options);

}  // namespace flopscope
