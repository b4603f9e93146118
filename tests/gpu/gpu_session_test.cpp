// On a machine with a GPU: the in-process Session traces real device work (a memset and a copy issued
// through the driver API, so no nvcc is needed) and attributes it to the scope pushed around it.
// Skips cleanly without a driver or GPU.
#include <dlfcn.h>
#include <gtest/gtest.h>

#include <cstdint>

#include "collector/cupti/gpu_probe.h"
#include "collector/cupti/session.h"

namespace flopscope {
namespace {

struct Driver {
  using CUdeviceptr = unsigned long long;
  int (*cuInit)(unsigned) = nullptr;
  int (*cuDeviceGet)(int*, int) = nullptr;
  int (*cuDevicePrimaryCtxRetain)(void**, int) = nullptr;
  int (*cuCtxSetCurrent)(void*) = nullptr;
  int (*cuMemAlloc)(CUdeviceptr*, size_t) = nullptr;
  int (*cuMemFree)(CUdeviceptr) = nullptr;
  int (*cuMemsetD8)(CUdeviceptr, unsigned char, size_t) = nullptr;
  int (*cuMemcpyDtoD)(CUdeviceptr, CUdeviceptr, size_t) = nullptr;
  int (*cuCtxSynchronize)() = nullptr;

  bool load() {
    void* lib = dlopen("libcuda.so.1", RTLD_NOW);
    if (lib == nullptr) return false;
    auto sym = [&](auto& fn, const char* name) {
      fn = reinterpret_cast<std::remove_reference_t<decltype(fn)>>(dlsym(lib, name));
    };
    sym(cuInit, "cuInit");
    sym(cuDeviceGet, "cuDeviceGet");
    sym(cuDevicePrimaryCtxRetain, "cuDevicePrimaryCtxRetain");
    sym(cuCtxSetCurrent, "cuCtxSetCurrent");
    sym(cuMemAlloc, "cuMemAlloc_v2");
    sym(cuMemFree, "cuMemFree_v2");
    sym(cuMemsetD8, "cuMemsetD8_v2");
    sym(cuMemcpyDtoD, "cuMemcpyDtoD_v2");
    sym(cuCtxSynchronize, "cuCtxSynchronize");
    return cuInit && cuDeviceGet && cuDevicePrimaryCtxRetain && cuCtxSetCurrent && cuMemAlloc && cuMemFree &&
           cuMemsetD8 && cuMemcpyDtoD && cuCtxSynchronize;
  }
};

TEST(GpuSession, TracesDeviceMemoryOperations) {
  auto gpus = gpu::probe_gpus();
  if (!gpus.ok()) GTEST_SKIP() << gpus.status().message();
  Driver d;
  ASSERT_TRUE(d.load());
  auto session = Session::start({});
  ASSERT_TRUE(session.ok()) << session.status().message();
  ASSERT_EQ(d.cuInit(0), 0);
  int dev = 0;
  void* ctx = nullptr;
  ASSERT_EQ(d.cuDeviceGet(&dev, 0), 0);
  ASSERT_EQ(d.cuDevicePrimaryCtxRetain(&ctx, dev), 0);
  ASSERT_EQ(d.cuCtxSetCurrent(ctx), 0);
  constexpr size_t kBytes = 64 << 20;
  Driver::CUdeviceptr a = 0, b = 0;
  ASSERT_EQ(d.cuMemAlloc(&a, kBytes), 0);
  ASSERT_EQ(d.cuMemAlloc(&b, kBytes), 0);
  gpu_scope_push("check.memset");
  ASSERT_EQ(d.cuMemsetD8(a, 1, kBytes), 0);
  gpu_scope_pop();
  ASSERT_EQ(d.cuMemcpyDtoD(b, a, kBytes), 0);
  ASSERT_EQ(d.cuCtxSynchronize(), 0);
  auto run = (*session)->stop({});
  ASSERT_TRUE(run.ok()) << run.status().message();
  d.cuMemFree(a);
  d.cuMemFree(b);
  bool memset_seen = false, copy_seen = false;
  for (const auto& k : run->kernels) {
    if (k.kind == KernelKind::kMemset && k.bytes == kBytes) {
      memset_seen = true;
      EXPECT_GT(k.duration_ns, 0);
    }
    if (k.kind == KernelKind::kMemcpy && k.bytes == kBytes) copy_seen = true;
  }
  EXPECT_TRUE(memset_seen);
  EXPECT_TRUE(copy_seen);
}

TEST(GpuSession, SecondSessionIsRefused) {
  if (!gpu::probe_gpus().ok()) GTEST_SKIP() << "no GPU";
  auto first = Session::start({});
  ASSERT_TRUE(first.ok()) << first.status().message();
  auto second = Session::start({});
  EXPECT_FALSE(second.ok());
}

TEST(GpuSession, WithoutAGpuStartFailsWithOneLine) {
  if (gpu::probe_gpus().ok()) GTEST_SKIP() << "a GPU is present";
  auto s = Session::start({});
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.status().message().find('\n'), std::string::npos);
  EXPECT_NE(s.status().message().find("no NVIDIA driver"), std::string::npos) << s.status().message();
}

}  // namespace
}  // namespace flopscope
