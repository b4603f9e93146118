// Turns Kineto / PyTorch-profiler trace events (one JSON object each) into TraceBuilder records.
// Handles the current schema (cpu_op, kernel, cuda_runtime, ...), the 2021 one (Operator, Kernel, Runtime,
// lowercase "external id", string pids/tids), ROCm argument names, Triton/torch.compile launches through
// cuda_driver, CUDA graph ids, and cuda_profiler_range events with measured counters.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>

#include "analyzer/importers/trace_builder.h"

namespace flopscope {

// record_function ranges named "flopscope.module <Class> <dotted path>" (python/flopscope) become module
// scopes with that path.
inline constexpr std::string_view kCompanionModulePrefix = "flopscope.module ";

class KinetoEventReader {
 public:
  // capture: the events come from the CUDA-graph capture trace of the run (see TraceBuilder::capture_thread).
  explicit KinetoEventReader(TraceBuilder& builder, bool capture = false);
  ~KinetoEventReader();
  KinetoEventReader(const KinetoEventReader&) = delete;
  KinetoEventReader& operator=(const KinetoEventReader&) = delete;

  // One element of traceEvents; `readable` bytes from text.data() may be read (padding for simdjson).
  void event(std::string_view text, std::size_t readable);
  // One top-level field other than traceEvents (deviceProperties, baseTimeNanoseconds, ...).
  void field(std::string_view key, std::string_view raw, std::size_t readable);

  std::uint64_t recognised() const { return recognised_; }
  // Earliest event time seen (ns in the trace's clock), INT64_MAX when none.
  std::int64_t earliest_ns() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
  std::uint64_t recognised_ = 0;
};

// Parses a Chrome-trace timestamp in microseconds ("1419247333291.708", "12", "1.5e3") into integer
// nanoseconds without going through a double for plain decimals (19-digit epoch values stay exact).
bool parse_us_to_ns(std::string_view text, std::int64_t& ns);

}  // namespace flopscope
