// What the summary tests share: a temporary directory, and field-by-field equality of costs and latency
// statistics (exact: a summary read back from a file must equal the one from the rows to the digit).
#pragma once

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <string>

#include "analyzer/summary.h"

namespace flopscope::testing {

struct TempDir {
  std::filesystem::path path;
  explicit TempDir(const std::string& prefix)
      : path(std::filesystem::temp_directory_path() / (prefix + std::to_string(::getpid()))) {
    std::filesystem::create_directories(path);
  }
  ~TempDir() { std::filesystem::remove_all(path); }
  std::string file(const std::string& name) const { return (path / name).string(); }
};

inline void expect_same_stats(const LatencyStats& a, const LatencyStats& b, const std::string& what) {
  EXPECT_EQ(a.samples, b.samples) << what;
  EXPECT_EQ(a.p50, b.p50) << what;
  EXPECT_EQ(a.p90, b.p90) << what;
  EXPECT_EQ(a.mean, b.mean) << what;
  EXPECT_EQ(a.values.dense(), b.values.dense()) << what;
}

inline void expect_same_cost(const Cost& a, const Cost& b, const std::string& what) {
  for (double Cost::*f :
       {&Cost::flops, &Cost::macs, &Cost::bytes_read, &Cost::bytes_written, &Cost::measured_flops,
        &Cost::dram_bytes, &Cost::dram_read, &Cost::dram_written, &Cost::dram_unsplit, &Cost::tensor_inst,
        &Cost::tensor_flops, &Cost::ops, &Cost::kernels}) {
    EXPECT_EQ(a.*f, b.*f) << what;
  }
}

}  // namespace flopscope::testing
