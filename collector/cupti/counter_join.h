// Joins Range Profiler results (AutoRange: one range per kernel launch, in launch order per context) to
// the traced kernels: the i-th range of a context belongs to that context's i-th counted launch, and
// the launch's kernel name must match the traced kernel's. CUPTI-free.
#pragma once

#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include "db/model/quality_catalogue.h"
#include "db/model/records.h"

namespace flopscope::gpu {

// One kernel launch seen in a launch-API callback while counters were being collected.
struct CountedLaunch {
  std::uint32_t context = 0;
  std::uint64_t ordinal = 0;  // 0-based within the context's counter session
  std::string symbol;         // kernel name from the callback
  // Correlation ids of the launch: the outer API call's and those of driver calls nested inside it
  // (the kernel record carries one of them).
  std::vector<std::uint32_t> correlations;
};

// Metric values of one range.
struct CounterRange {
  std::uint32_t context = 0;
  std::uint64_t ordinal = 0;
  std::vector<double> values;  // same order as the metric list
};

struct CounterJoinResult {
  std::int64_t joined = 0;
  std::int64_t name_mismatch = 0;     // launch and traced kernel disagree on the name: counters dropped
  std::int64_t no_traced_kernel = 0;  // range and launch found, but no kernel record with its correlation
  std::int64_t range_without_launch = 0;
  std::int64_t launch_without_range = 0;
  std::vector<QualityIssue> issues() const;
};

// Applies counters to `kernels` (matched by KernelRecord::correlation) and reports what could not be
// joined.
CounterJoinResult join_counters(const std::vector<std::string>& metrics,
                                const std::vector<CountedLaunch>& launches,
                                const std::vector<CounterRange>& ranges, std::vector<KernelRecord>& kernels);

}  // namespace flopscope::gpu
