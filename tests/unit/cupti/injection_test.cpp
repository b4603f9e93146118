// The injection library loads with dlopen, exports only its entry points, and InitializeInjection
// returns cleanly without a driver, reporting the failure in the status file and writing no database.
#include <dlfcn.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "collector/cupti/gpu_probe.h"
#include "collector/cupti/inject_env.h"

namespace flopscope {
namespace {

namespace fs = std::filesystem;

const char* kLibrary = FLOPSCOPE_BINARY_DIR "/cli/libflopscope_inject.so";

TEST(Injection, LoadsAndInitializesWithoutADriver) {
  if (gpu::probe_gpus().ok()) GTEST_SKIP() << "a GPU is present: this test covers the no-driver path";
  fs::path dir = fs::temp_directory_path() / ("inject_test_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  fs::path out = dir / "run.db", status = dir / "status";
  ::setenv(inject::kEnvOutput, out.c_str(), 1);
  ::setenv(inject::kEnvStatusFile, status.c_str(), 1);
  ::setenv(inject::kEnvMetrics, "none", 1);

  void* lib = dlopen(kLibrary, RTLD_NOW | RTLD_LOCAL);
  ASSERT_NE(lib, nullptr) << dlerror();
  using Init = int (*)();
  auto init = reinterpret_cast<Init>(dlsym(lib, "InitializeInjection"));
  ASSERT_NE(init, nullptr);
  EXPECT_NE(dlsym(lib, "InitializeInjectionNvtx2"), nullptr);
  // Internals stay hidden so they cannot clash with the host program's symbols.
  EXPECT_EQ(dlsym(lib, "_ZN9flopscope3gpu10real_cuptiEv"), nullptr);

  EXPECT_EQ(init(), 1);
  EXPECT_EQ(init(), 1);  // idempotent
  std::ifstream in(status);
  std::string line;
  std::getline(in, line);
  EXPECT_NE(line.find("CUPTI_ERROR_UNKNOWN"), std::string::npos) << line;
  EXPECT_FALSE(fs::exists(out));
  fs::remove_all(dir);
}

TEST(InjectEnv, OneDatabasePerProcess) {
  fs::path dir = fs::temp_directory_path() / ("inject_env_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  std::string out = (dir / "run.db").string();
  EXPECT_EQ(inject::output_for_process(out, 100, "3"), (dir / "run.rank3.db").string());
  EXPECT_EQ(inject::output_for_process(out, 100, nullptr), out);  // first claims the name
  EXPECT_EQ(inject::output_for_process(out, 101, nullptr), (dir / "run.101.db").string());
  EXPECT_EQ(inject::output_for_process(out, 102, ""), (dir / "run.102.db").string());
  EXPECT_TRUE(fs::exists(inject::claim_path(out)));
  EXPECT_EQ(inject::output_for_process((dir / "trace").string(), 7, "0"), (dir / "trace.rank0").string());
  fs::remove_all(dir);
}

}  // namespace
}  // namespace flopscope
