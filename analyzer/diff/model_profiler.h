// How `flopscope diff` profiles TorchScript models given in place of runs. The diff library knows nothing of
// LibTorch: a build with the torch collector installs the profiler here at start-up; without one, a model
// argument is refused with a message that says to profile it first.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "db/model/run_data.h"
#include "db/model/status.h"

namespace flopscope {

struct ModelProfileRequest {
  std::string model_path;
  std::vector<std::string> input_specs;  // as `flopscope profile --input` takes them
  int iterations = 10;
  int warmup = 2;
};

// Must return a run with FLOPs assigned (as `flopscope profile` writes it).
using ModelProfiler = std::function<StatusOr<RunData>(const ModelProfileRequest&)>;

void set_model_profiler(ModelProfiler profiler);
const ModelProfiler& model_profiler();  // empty when none is installed

}  // namespace flopscope
