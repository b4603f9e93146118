// Tensor-pipe instructions (sm__inst_executed_pipe_tensor.sum) to FLOPs, per GPU architecture. A factor
// exists only where every instruction of that pipe does the same work; elsewhere the count stays
// instructions. docs/flops.md ("Measured counters") gives each architecture's rule and its sources.
#pragma once

#include <optional>
#include <string_view>

namespace flopscope {

struct TensorPipeFactor {
  std::string_view architecture;     // "Volta", "Ampere", ...
  double flops_per_instruction = 0;  // 0: no fixed factor on this architecture
  std::string_view basis;            // why this factor, or why none
  bool converts() const { return flops_per_instruction > 0; }
};

// The architecture of a device as traces and profilers name it ("Tesla V100-SXM2-16GB", "NVIDIA H100 80GB
// HBM3", "compute capability 7.0", "sm_80"), nullopt when it is not a known NVIDIA GPU.
std::optional<TensorPipeFactor> tensor_pipe_factor(std::string_view device);

}  // namespace flopscope
