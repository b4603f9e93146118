// Ablation before the edit: run a TorchScript model as it is and again with some module instances' outputs
// replaced (by zeros, or by the module's first input), on the same inputs, and keep both outputs so the
// change can be measured (analyzer/outputs/output_compare.h). Torch-free header: the rewrite runs inside
// libflopscope-torch.so (ablation.cpp), reached through the plugin table like the profile pipeline.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "collector/torch/input_files.h"
#include "collector/torch/input_spec.h"
#include "db/model/output_records.h"
#include "db/model/status.h"

namespace flopscope {

enum class AblationMode {
  kZero,      // zeros of the output's shape and dtype
  kIdentity,  // the module's first tensor input (refused when its shape or dtype differs from the output's)
};
const char* to_string(AblationMode mode);

// One --module option: which instances (a glob over module paths) and how.
struct ModuleAblationSpec {
  std::string glob;
  AblationMode mode = AblationMode::kZero;
};
// "GLOB=zero" or "GLOB=identity"; the error names the option and what a valid one looks like.
StatusOr<ModuleAblationSpec> parse_module_ablation(const std::string& text);

struct AblatedModule {
  std::string path;  // an instance path as named_modules() gives it, never the root
  AblationMode mode = AblationMode::kZero;
};

struct AblationOptions {
  std::string model_path;
  std::vector<InputSpec> inputs;    // random inputs from `seed`, as `profile --input` makes them
  std::vector<InputFile> requests;  // or request files, one forward() each
  std::uint64_t seed = 0;
  int threads = 0;  // 0: one per CPU core
  std::vector<AblatedModule> modules;
};

// One ablated instance: how many call sites of forward() the rewrite replaced (0: forward() never calls it).
struct AblatedSite {
  std::string path;
  AblationMode mode = AblationMode::kZero;
  int call_sites = 0;
};

struct AblationRun {
  std::vector<OutputRecord> original;  // per request: what the unedited model returned
  std::vector<OutputRecord> ablated;   // the same requests through the rewritten forward()
  std::vector<AblatedSite> sites;      // in the order of AblationOptions::modules
  // Instances whose forward() still runs in the rewritten graph (inlined as written), sorted: the proof that
  // rewriting one instance left the others of its class alone.
  std::vector<std::string> still_running;
  // Module calls left as they are because their instance cannot be told (a call through a module interface):
  // an ablated instance reached only through one shows no call site.
  int opaque_calls = 0;
};

// Errors: the model does not load or run, a path is not an instance of the model, an instance returns no
// single tensor, or identity meets an output shaped unlike the input ("... identity needs equal shapes").
// Front ends call ablate_model (profile_model.cpp forwards it to the plugin; profile_model_unavailable.cpp
// refuses it); run_ablation is the plugin's implementation (ablation.cpp).
StatusOr<AblationRun> ablate_model(const AblationOptions& options);
StatusOr<AblationRun> run_ablation(const AblationOptions& options);

}  // namespace flopscope
