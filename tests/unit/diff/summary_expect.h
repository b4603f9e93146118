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

// A module's path, its costs and times, self and inclusive, on the host and the device, and its share of the
// run's time: what every way of summarizing a run must agree on.
inline void expect_same_module(const ModuleSummary& a, const ModuleSummary& b) {
  EXPECT_EQ(a.path, b.path);
  expect_same_cost(a.self, b.self, a.path + " self");
  expect_same_cost(a.inclusive, b.inclusive, a.path + " inclusive");
  expect_same_stats(a.self_time, b.self_time, a.path + " self time");
  expect_same_stats(a.inclusive_time, b.inclusive_time, a.path + " inclusive time");
  expect_same_stats(a.gpu_time, b.gpu_time, a.path + " device time");
  expect_same_stats(a.gpu_self_time, b.gpu_self_time, a.path + " device self time");
  EXPECT_EQ(a.share_time, b.share_time) << a.path;
}

}  // namespace flopscope::testing
