#include "db/model/atomic_file.h"

#include <gtest/gtest.h>

#include <filesystem>

namespace flopscope {
namespace {
namespace fs = std::filesystem;

class AtomicFileTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("fs_atomic_" + std::to_string(::getpid()));
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  fs::path dir_;
};

TEST_F(AtomicFileTest, NothingVisibleUntilCommit) {
  std::string path = (dir_ / "out.txt").string();
  {
    auto f = AtomicFile::create(path, false);
    ASSERT_TRUE(f.ok()) << f.status().message();
    ASSERT_TRUE(f->write("half").ok());
    EXPECT_FALSE(fs::exists(path));
  }  // destroyed without commit
  EXPECT_FALSE(fs::exists(path));
  EXPECT_EQ(std::distance(fs::directory_iterator(dir_), fs::directory_iterator()), 0);
}

TEST_F(AtomicFileTest, RefusesExistingUnlessOverwrite) {
  std::string path = (dir_ / "out.txt").string();
  ASSERT_TRUE(write_file_atomically(path, "one", false).ok());
  Status s = write_file_atomically(path, "two", false);
  EXPECT_EQ(s.code(), StatusCode::kAlreadyExists);
  EXPECT_NE(s.message().find("--force"), std::string::npos);
  ASSERT_TRUE(write_file_atomically(path, "two", true).ok());
  EXPECT_EQ(*read_file(path), "two");
}

TEST_F(AtomicFileTest, MissingDirectoryIsNamed) {
  Status s = check_output_path((dir_ / "nope" / "x.db").string(), false);
  EXPECT_EQ(s.code(), StatusCode::kNotFound);
  EXPECT_NE(s.message().find("nope"), std::string::npos);
  EXPECT_EQ(read_file((dir_ / "missing").string()).status().code(), StatusCode::kNotFound);
}

}  // namespace
}  // namespace flopscope
