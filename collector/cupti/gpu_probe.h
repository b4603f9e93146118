// Is there a CUDA driver and a GPU? Asked by dlopen'ing the driver (libcuda.so.1), so flopscope itself
// never needs libcuda to start. CUPTI-free.
#pragma once

#include <string>
#include <vector>

#include "db/model/status.h"

namespace flopscope::gpu {

struct GpuInfo {
  int index = 0;
  std::string name;  // "NVIDIA H200"
};

// The visible GPUs, or Unavailable("no NVIDIA driver ..." / "no CUDA GPU ...") as one line.
StatusOr<std::vector<GpuInfo>> probe_gpus();

}  // namespace flopscope::gpu
