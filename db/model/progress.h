// A progress line for long work: drawn on stderr when it is a terminal, silent otherwise (CI logs, pipes).
#pragma once

#include <chrono>
#include <cstdint>
#include <string>

namespace flopscope {

class Progress {
 public:
  // total == 0: unknown total, shows a count.
  Progress(std::string label, std::uint64_t total);
  ~Progress();
  Progress(const Progress&) = delete;
  Progress& operator=(const Progress&) = delete;

  void update(std::uint64_t done);
  void finish();
  bool enabled() const { return enabled_; }

  // Tests and --no-progress turn it off globally.
  static void set_globally_enabled(bool on);

 private:
  std::string label_;
  std::uint64_t total_;
  bool enabled_;
  bool drawn_ = false;
  std::chrono::steady_clock::time_point last_{};
};

}  // namespace flopscope
