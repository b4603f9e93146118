#include "db/model/temp_files.h"

#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "db/model/atomic_file.h"

namespace flopscope {
namespace {
namespace fs = std::filesystem;

class TempFilesTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("fs_temp_files_" + std::to_string(::getpid()));
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  fs::path dir_;
};

// A pid that no process has: a child that already ended and was reaped.
pid_t ended_pid() {
  pid_t p = ::fork();
  if (p == 0) ::_exit(0);
  int status = 0;
  ::waitpid(p, &status, 0);
  return p;
}

TEST_F(TempFilesTest, SignalRemovesRegisteredPathsAndEndsWithTheSignal) {
  const fs::path file = dir_ / "out.db.tmp-1-abcdef";
  const fs::path folder = dir_ / "work";
  pid_t child = ::fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    remove_temp_paths_on_signals();
    std::ofstream(file) << "half a run";
    std::ofstream(file.string() + "-journal") << "journal";
    fs::create_directories(folder / "inner");
    std::ofstream(folder / "inner" / "trace.json") << "{}";
    register_temp_path(file.string());
    register_temp_path(folder.string());
    ::kill(::getpid(), SIGTERM);
    for (;;) ::pause();  // the clean-up thread ends the process
  }
  int status = 0;
  ASSERT_EQ(::waitpid(child, &status, 0), child);
  ASSERT_TRUE(WIFSIGNALED(status)) << status;
  EXPECT_EQ(WTERMSIG(status), SIGTERM);
  EXPECT_FALSE(fs::exists(file));
  EXPECT_FALSE(fs::exists(file.string() + "-journal"));
  EXPECT_FALSE(fs::exists(folder));
}

TEST_F(TempFilesTest, UnregisteredPathsSurviveTheSignal) {
  const fs::path file = dir_ / "published.db";
  pid_t child = ::fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    remove_temp_paths_on_signals();
    std::ofstream(file) << "a finished run";
    register_temp_path(file.string());
    unregister_temp_path(file.string());  // published: no longer ours to remove
    ::kill(::getpid(), SIGINT);
    for (;;) ::pause();
  }
  int status = 0;
  ASSERT_EQ(::waitpid(child, &status, 0), child);
  ASSERT_TRUE(WIFSIGNALED(status));
  EXPECT_EQ(WTERMSIG(status), SIGINT);
  EXPECT_TRUE(fs::exists(file));
}

TEST_F(TempFilesTest, StaleEntriesOfEndedWritersAreRemovedLiveOnesKept) {
  const std::string dead = std::to_string(ended_pid());
  const std::string live = std::to_string(::getpid());
  std::ofstream(dir_ / ("run.db.tmp-" + dead + "-Ab3dE9")) << "x";
  std::ofstream(dir_ / ("run.db.tmp-" + dead + "-Ab3dE9-journal")) << "x";
  fs::create_directories(dir_ / ("flopscope-trace-" + dead + "-q1w2e3") / "inner");
  // An import's staging file and the run database being written inside it, both of a killed import.
  std::ofstream(dir_ / ("out.db.import-" + dead + "-LTVR3Y")) << "x";
  std::ofstream(dir_ / ("out.db.import-" + dead + "-LTVR3Y.tmp-" + dead + "-5JxH5b")) << "x";
  std::ofstream(dir_ / ("run.db.tmp-" + live + "-zzzzzz")) << "x";       // this process: still writing
  std::ofstream(dir_ / ("run.db.tmp-" + dead + "-toolongname")) << "x";  // not mkstemp's shape
  std::ofstream(dir_ / "run.db") << "x";
  EXPECT_GE(remove_stale_temp_paths(dir_.string(), "run.db.tmp-"), 1);  // 2 when the journal is seen first
  EXPECT_EQ(remove_stale_temp_paths(dir_.string(), "flopscope-trace-"), 1);
  EXPECT_EQ(remove_stale_temp_paths(dir_.string(), "out.db.import-"), 2);
  EXPECT_FALSE(fs::exists(dir_ / ("out.db.import-" + dead + "-LTVR3Y.tmp-" + dead + "-5JxH5b")));
  EXPECT_FALSE(fs::exists(dir_ / ("run.db.tmp-" + dead + "-Ab3dE9")));
  EXPECT_FALSE(fs::exists(dir_ / ("run.db.tmp-" + dead + "-Ab3dE9-journal")));
  EXPECT_FALSE(fs::exists(dir_ / ("flopscope-trace-" + dead + "-q1w2e3")));
  EXPECT_TRUE(fs::exists(dir_ / ("run.db.tmp-" + live + "-zzzzzz")));
  EXPECT_TRUE(fs::exists(dir_ / ("run.db.tmp-" + dead + "-toolongname")));
  EXPECT_TRUE(fs::exists(dir_ / "run.db"));
}

TEST_F(TempFilesTest, AtomicFileNamesItsTempWithItsPidAndClearsAKilledWritersFile) {
  const std::string target = (dir_ / "report.html").string();
  const std::string stale = target + ".tmp-" + std::to_string(ended_pid()) + "-Zx9Yw8";
  std::ofstream(stale) << "left by kill -9";
  auto f = AtomicFile::create(target, false);
  ASSERT_TRUE(f.ok()) << f.status().message();
  EXPECT_FALSE(fs::exists(stale));
  EXPECT_NE(f->temp_path().find(".tmp-" + std::to_string(::getpid()) + "-"), std::string::npos)
      << f->temp_path();
}

}  // namespace
}  // namespace flopscope
