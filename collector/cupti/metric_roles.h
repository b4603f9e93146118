// How a metric's value lands in a KernelRecord. CUPTI-free so tests and the CLI can use it directly.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "db/model/records.h"

namespace flopscope::gpu {

enum class MetricRole {
  kOther,        // collected, but no KernelRecord column holds it
  kFlopsFp64,    // value is FLOPs
  kFlopsFp64x2,  // fma instructions: 2 FLOPs each
  kFlopsFp32,
  kFlopsFp32x2,
  kFlopsFp16,
  kFlopsFp16x2,
  kTensorOps,
  kDramRead,
  kDramWrite,
  kL2Bytes,
  kDuration,  // gpu__time_duration (ns), kept for the overhead check only
};

MetricRole metric_role(std::string_view metric);
const char* to_string(MetricRole role);

// Adds metric values (same order as `metrics`) to the kernel's counter fields and sets has_counters.
void apply_metric_values(const std::vector<std::string>& metrics, const std::vector<double>& values,
                         KernelRecord& kernel);

}  // namespace flopscope::gpu
