#include <gtest/gtest.h>

#include "import_test_util.h"

namespace flopscope {
namespace {

const char* kSaxpy = "nsys/pipit__saxpy-mpi-cuda_nsys_perlmutter0.sqlite";

TEST(NsysImport, SaxpyKernelsFallInsideTheSaxpyRange) {
  auto run = testing::import_file(testing::fixture(kSaxpy));
  ASSERT_TRUE(run.ok()) << run.status().message();
  EXPECT_EQ(run->info.source_kind, SourceKind::kNsys);
  EXPECT_EQ(run->info.device, "NVIDIA A100-SXM4-40GB");
  int kernels = 0;
  for (const auto& k : run->kernels) {
    if (k.kind != KernelKind::kKernel) continue;
    ++kernels;
    EXPECT_EQ(testing::module_path(*run, k.module_id), "saxpy") << k.name;
    EXPECT_GT(k.duration_ns, 0);
    EXPECT_GT(k.grid[0], 0);
  }
  EXPECT_EQ(kernels, 5);
  // Launch rows are duplicated (eventClass 67) in this export: no kernel is counted twice.
  int memcpy = 0, htod = 0, dtoh = 0;
  for (const auto& k : run->kernels) {
    memcpy += k.kind == KernelKind::kMemcpy;
    htod += k.name == "Memcpy HtoD";
    dtoh += k.name == "Memcpy DtoH";
  }
  EXPECT_EQ(memcpy, 15);
  // The direction comes from copyKind (1 = HtoD: 10 rows, 2 = DtoH: 5 rows in this export).
  EXPECT_EQ(htod, 10);
  EXPECT_EQ(dtoh, 5);
}

}  // namespace
}  // namespace flopscope
