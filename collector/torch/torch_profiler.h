// Profiles a TorchScript model on the CPU through LibTorch: every aten op of every measured iteration with
// its shapes, thread, timing and module path, plus the module tree and parameter statistics. Torch-free
// header: LibTorch stays inside collector/torch/*.cpp.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "collector/torch/input_files.h"
#include "collector/torch/input_spec.h"
#include "db/model/run_data.h"
#include "db/model/status.h"

namespace torch::jit {
struct Module;
}

namespace flopscope {

struct TorchProfileOptions {
  std::string model_path;
  std::vector<InputSpec> inputs;
  int iterations = 10;
  int warmup = 2;
  int threads = 0;  // 0: one per CPU core
  std::uint64_t seed = 0;
  // Requests read from files (--inputs / --input-file) replace the random inputs: each is one forward of a
  // single-input model, tagged with its input set; `iterations` passes run over the whole set.
  std::vector<InputFile> requests;
  std::string device = "cpu";  // "cuda" needs a LibTorch built with CUDA (Debian's is CPU-only)
  bool observe = true;         // false runs the same loop without the op observer (overhead baseline)
  bool activations = false;    // per module call output statistics (ActivationRecord)
  // "instances" (default): each op belongs to the module instance whose method the interpreter runs;
  // the model runs un-inlined, without the graph executor's optimizing passes (nothing rewritten, no
  // runtime guard ops). "hierarchy": optimized and inlined, modules recovered from the interpreter's
  // hierarchy names; ambiguous ones become a data-quality error.
  std::string attribution = "instances";
  std::string tool_version;
  std::string command_line;
  std::function<void(int done, int total)> on_iteration;  // progress, warmup included
};

struct TorchProfile {
  RunData run;                            // ops carry shapes; FLOPs are assigned by the analyzer
  std::vector<double> iteration_wall_ns;  // wall time of each measured forward call
  double activation_cost_ns = 0;          // time spent computing activation statistics
  std::int64_t reused_calls = 0;          // measured calls whose argument lists were reused (OpObserver)
  // What forward() returned in the first measured iteration: each tensor as an op argument (shape, dtype),
  // in order; the graph's last ops have no consumer to record their output shapes otherwise.
  std::vector<OpArg> outputs;
};

// When `loaded` is given it receives the module that ran (in eval mode), so the caller can read its graph
// without loading the file again.
StatusOr<TorchProfile> profile_torchscript(const TorchProfileOptions& options,
                                           std::shared_ptr<torch::jit::Module>* loaded = nullptr);

// Module tree and parameters only (no inference): for `flopscope weights` on a TorchScript archive.
StatusOr<RunData> inspect_torchscript(const std::string& model_path);

// Whether a forward call can change what the next one sees besides tensor data: some function of the model's
// sets an attribute, mutates a value read from an attribute in place (list, dict or tensor), or turns a
// tensor into a list (prim::tolist, which reads data outside any op). The op observer reuses shapes only when
// it cannot (OpObserver::set_shape_reuse).
bool mutates_module_state(const torch::jit::Module& m);

}  // namespace flopscope
