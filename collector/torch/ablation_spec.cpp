// The torch-free side of ablation.h: its option syntax.
#include "collector/torch/ablation.h"

namespace flopscope {

const char* to_string(AblationMode mode) {
  return mode == AblationMode::kZero ? "zero" : "identity";
}

StatusOr<ModuleAblationSpec> parse_module_ablation(const std::string& text) {
  const auto eq = text.rfind('=');
  const std::string how = eq == std::string::npos ? "" : text.substr(eq + 1);
  if (eq == std::string::npos || eq == 0 || (how != "zero" && how != "identity")) {
    return InvalidArgument(
        "--module '" + text +
        "': expected GLOB=zero or GLOB=identity, e.g. 'layers.*.attn.position_adaptive_bias=zero'");
  }
  return ModuleAblationSpec{text.substr(0, eq),
                            how == "zero" ? AblationMode::kZero : AblationMode::kIdentity};
}

}  // namespace flopscope
