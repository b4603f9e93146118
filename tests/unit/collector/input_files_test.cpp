#include "collector/torch/input_files.h"

#include <gtest/gtest.h>

#include <cstring>
#include <filesystem>
#include <fstream>

namespace flopscope {
namespace {
namespace fs = std::filesystem;

class InputFiles : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("fs_inputs_" + std::to_string(::getpid()));
    fs::create_directories(dir_ / "text");
    fs::create_directories(dir_ / "structured");
  }
  void TearDown() override { fs::remove_all(dir_); }
  void write(const fs::path& p, const std::string& bytes) { std::ofstream(p, std::ios::binary) << bytes; }

  // A version-1 .npy file with the given header dict and payload.
  static std::string npy(const std::string& dict, const std::string& payload) {
    std::string header = dict;
    while ((10 + header.size() + 1) % 64 != 0) header += ' ';
    header += '\n';
    std::string out = "\x93NUMPY\x01";
    out += '\0';
    out += static_cast<char>(header.size() & 0xff);
    out += static_cast<char>(header.size() >> 8);
    return out + header + payload;
  }
  fs::path dir_;
};

TEST_F(InputFiles, ReadsNpyAndTokenFilesWithTags) {
  float values[6] = {1, 2, 3, 4, 5, 6};
  write(dir_ / "structured" / "a.npy", npy("{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }",
                                           std::string(reinterpret_cast<char*>(values), sizeof(values))));
  write(dir_ / "text" / "b.txt", "5 6 7\n8\n");
  auto files = read_input_dir(dir_.string());
  ASSERT_TRUE(files.ok()) << files.status().message();
  ASSERT_EQ(files->size(), 2u);
  const InputFile& a = (*files)[0];
  EXPECT_EQ(a.tag, "structured");
  ASSERT_EQ(a.arrays.size(), 1u);
  EXPECT_EQ(a.arrays[0].dtype, "float32");
  EXPECT_EQ(a.arrays[0].shape, (std::vector<std::int64_t>{2, 3}));
  float back[6];
  std::memcpy(back, a.arrays[0].data.data(), sizeof(back));
  EXPECT_EQ(back[5], 6);
  const InputFile& b = (*files)[1];
  EXPECT_EQ(b.tag, "text");
  EXPECT_EQ(b.arrays.at(0).shape, (std::vector<std::int64_t>{1, 4}));
}

TEST_F(InputFiles, RejectsDamagedFiles) {
  write(dir_ / "short.npy", npy("{'descr': '<f4', 'fortran_order': False, 'shape': (10,), }", "abcd"));
  auto s = read_input_file((dir_ / "short.npy").string(), "x");
  EXPECT_EQ(s.status().code(), StatusCode::kCorrupt);
  EXPECT_NE(s.status().message().find("shorter"), std::string::npos);
  write(dir_ / "be.npy", npy("{'descr': '>f4', 'fortran_order': False, 'shape': (1,), }", "abcd"));
  EXPECT_EQ(read_input_file((dir_ / "be.npy").string(), "x").status().code(), StatusCode::kUnsupported);
  write(dir_ / "magic.npy", "not numpy at all");
  EXPECT_NE(read_input_file((dir_ / "magic.npy").string(), "x").status().message().find("magic"),
            std::string::npos);
  write(dir_ / "huge.npy", std::string("\x93NUMPY\x01\x00\xff\xff", 10));
  EXPECT_EQ(read_input_file((dir_ / "huge.npy").string(), "x").status().code(), StatusCode::kCorrupt);
  EXPECT_EQ(read_input_file((dir_ / "x.csv").string(), "x").status().code(), StatusCode::kNotFound);
  fs::path empty = dir_ / "empty";
  fs::create_directories(empty);
  EXPECT_FALSE(read_input_dir(empty.string()).ok());
}

// A crafted shape whose size overflows: the element count (2^62 x 8) or the byte count (2^61 float64s)
// wrapped to a small number, which then passed the length check (hostile inputs, issue 15).
TEST_F(InputFiles, ShapesWhoseSizeOverflowsAreRefused) {
  for (const char* dict : {"{'descr': '<f4', 'fortran_order': False, 'shape': (4611686018427387904, 8), }",
                           "{'descr': '<f8', 'fortran_order': False, 'shape': (2305843009213693952,), }"}) {
    write(dir_ / "over.npy", npy(dict, "abcdefgh"));
    auto s = read_input_file((dir_ / "over.npy").string(), "x");
    EXPECT_EQ(s.status().code(), StatusCode::kCorrupt) << dict;
    EXPECT_NE(s.status().message().find("too large"), std::string::npos) << s.status().message();
  }
}

}  // namespace
}  // namespace flopscope
