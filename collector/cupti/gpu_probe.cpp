#include "collector/cupti/gpu_probe.h"

#include <dlfcn.h>

namespace flopscope::gpu {
namespace {

// The three driver entry points used, declared here so that the probe needs no CUDA header.
using CuInit = int (*)(unsigned int);
using CuDeviceGetCount = int (*)(int*);
using CuDeviceGetName = int (*)(char*, int, int);
using CuDeviceGet = int (*)(int*, int);
using CuGetErrorString = int (*)(int, const char**);

constexpr int kCudaErrorNoDevice = 100;

}  // namespace

StatusOr<std::vector<GpuInfo>> probe_gpus() {
  // RTLD_NOLOAD first: inside a CUDA process the driver is already there.
  void* lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL | RTLD_NOLOAD);
  if (lib == nullptr) lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
  if (lib == nullptr) {
    return Unavailable(
        "no NVIDIA driver: libcuda.so.1 cannot be loaded (this machine has no CUDA driver or no GPU)");
  }
  auto init = reinterpret_cast<CuInit>(dlsym(lib, "cuInit"));
  auto count_fn = reinterpret_cast<CuDeviceGetCount>(dlsym(lib, "cuDeviceGetCount"));
  auto get = reinterpret_cast<CuDeviceGet>(dlsym(lib, "cuDeviceGet"));
  auto name_fn = reinterpret_cast<CuDeviceGetName>(dlsym(lib, "cuDeviceGetName"));
  auto err_fn = reinterpret_cast<CuGetErrorString>(dlsym(lib, "cuGetErrorString"));
  if (init == nullptr || count_fn == nullptr || get == nullptr || name_fn == nullptr) {
    return Unavailable("no usable NVIDIA driver: libcuda.so.1 lacks cuInit/cuDeviceGetCount");
  }
  int rc = init(0);
  if (rc != 0) {
    const char* text = nullptr;
    if (err_fn != nullptr) err_fn(rc, &text);
    std::string why = text != nullptr ? text : "CUDA error " + std::to_string(rc);
    if (rc == kCudaErrorNoDevice) return Unavailable("no CUDA GPU found (cuInit: " + why + ")");
    return Unavailable("the CUDA driver failed to initialise (cuInit: " + why + ")");
  }
  int count = 0;
  if (count_fn(&count) != 0 || count == 0)
    return Unavailable("no CUDA GPU found (cuDeviceGetCount: 0 devices)");
  std::vector<GpuInfo> gpus;
  for (int i = 0; i < count; ++i) {
    GpuInfo g;
    g.index = i;
    int dev = 0;
    char name[256] = {};
    if (get(&dev, i) == 0 && name_fn(name, sizeof(name), dev) == 0) g.name = name;
    gpus.push_back(g);
  }
  return gpus;
}

}  // namespace flopscope::gpu
