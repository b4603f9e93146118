// Helpers for run database tests: a temporary directory, a run with every field set, field-by-field
// comparison. The comparisons unpack each record with a structured binding, so adding a field to a record
// stops this file compiling until the field is compared (and, through the round-trip test, stored).
#pragma once

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <string>

#include "db/model/run_data.h"

namespace flopscope::testing {

class TempDir {
 public:
  TempDir() {
    std::string tmpl = (std::filesystem::temp_directory_path() / "flopscope-db-test-XXXXXX").string();
    path_ = ::mkdtemp(tmpl.data());
  }
  ~TempDir() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  std::string file(const std::string& name) const { return (path_ / name).string(); }
  const std::filesystem::path& path() const { return path_; }
  // Names of the files in the directory, sorted.
  std::vector<std::string> listing() const {
    std::vector<std::string> names;
    for (const auto& e : std::filesystem::directory_iterator(path_))
      names.push_back(e.path().filename().string());
    std::sort(names.begin(), names.end());
    return names;
  }

 private:
  std::filesystem::path path_;
};

// Writes `run` as a new run database at `path` (replacing a file there).
::testing::AssertionResult write_run_file(const std::string& path, const RunData& run);

// A small run in which every field of every record holds a value that differs from its default.
RunData sample_run();

void expect_equal(const RunInfo& a, const RunInfo& b);
void expect_equal(const ModuleRecord& a, const ModuleRecord& b);
void expect_equal(const OpRecord& a, const OpRecord& b);
void expect_equal(const KernelRecord& a, const KernelRecord& b);
void expect_equal(const ParamRecord& a, const ParamRecord& b);
void expect_equal(const GraphNode& a, const GraphNode& b);
void expect_equal(const GraphEdge& a, const GraphEdge& b);
void expect_equal(const ActivationRecord& a, const ActivationRecord& b);
void expect_equal(const QualityIssue& a, const QualityIssue& b);
void expect_equal(const ActivationRecord& a, const ActivationRecord& b);
void expect_equal(const RunData& a, const RunData& b);

}  // namespace flopscope::testing
