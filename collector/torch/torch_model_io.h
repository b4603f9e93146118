// Loading a TorchScript archive, building the inputs of its forward() calls and reading what they returned,
// shared by the profiler (torch_profiler.cpp) and the ablation (ablation.cpp). A LibTorch header: include it
// from LibTorch TUs only.
#pragma once

#include <torch/script.h>

#include <cstdint>
#include <string>
#include <vector>

#include "collector/torch/input_files.h"
#include "collector/torch/input_spec.h"
#include "db/model/output_records.h"
#include "db/model/status.h"

namespace flopscope {

// The archive loaded on the CPU in eval mode; errors say in one line why it is no TorchScript model.
StatusOr<torch::jit::Module> load_torchscript_module(const std::string& path);

// The interpreter's own cause of a failed forward(), without its traceback.
std::string failure_cause(const std::string& what);

// The inputs of one forward() call, with its input-set tag.
struct ModelRequest {
  std::vector<c10::IValue> inputs;
  std::string tag;
  std::string what;  // for error messages: the --input specs or the request file
};

// One request of random inputs from the specs (seeded), or one per request file; an error when their count
// does not fit forward()'s arguments.
StatusOr<std::vector<ModelRequest>> model_requests(const std::string& model_path,
                                                   const c10::FunctionSchema& schema,
                                                   const std::vector<InputSpec>& specs,
                                                   const std::vector<InputFile>& files, std::uint64_t seed);

// Every tensor of a returned value with its path: "0" for a bare tensor, tuple and list indices, dict keys,
// joined with "." when nested ("1.logits").
void collect_output_tensors(const c10::IValue& v, const std::string& path,
                            std::vector<std::pair<std::string, at::Tensor>>& out);

// One returned tensor: hash of its own bytes, every element as double while `budget_left` bytes last (it
// shrinks; past it the tensor is summarized), statistics either way.
OutputTensor output_tensor(const std::string& name, const at::Tensor& tensor, std::int64_t& budget_left);

// sha256 over every input's dtype, shape and bytes, in argument order: the same request file or the same
// seeded --input give the same hash, so outputs pair by it (compare_outputs).
std::string input_hash(const std::vector<c10::IValue>& inputs);

}  // namespace flopscope
