// Which counters to collect, checked against the chip before anything runs. The Profiler Host API works
// offline, so `flopscope metrics --chip GH100` and the CI tests validate names and pass counts without a GPU.
#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "collector/cupti/cupti_api.h"
#include "collector/cupti/metric_roles.h"

namespace flopscope::gpu {

// The default set for a chip: CUDA-core FLOPs per precision (add, mul, fma thread instructions), the
// chip's tensor-core ops, DRAM bytes read and written, and kernel duration.
std::vector<std::string> default_metrics(std::string_view chip);

// The hardware-counter part of the default set (no SASS-patched FLOP counters): one pass, no SASS
// instrumentation, but no CUDA-core FLOPs either.
std::vector<std::string> hardware_metrics(std::string_view chip);

// Parses --metrics: "default", "hardware", "none" (empty list) or a comma-separated list of metric
// names (which may include "default").
std::vector<std::string> parse_metrics_option(std::string_view spec, std::string_view chip);

struct MetricInfo {
  std::string name;
  std::string description;
  std::string hw_unit;
  std::string dim_unit;
  MetricRole role = MetricRole::kOther;
};

class HostObject;

struct MetricPlan {
  std::string chip;
  std::vector<std::string> metrics;
  std::vector<MetricInfo> info;      // same order as metrics
  std::string config_image;          // for cuptiRangeProfilerSetConfig
  std::size_t passes = 0;            // kernel replays per kernel
  std::shared_ptr<HostObject> host;  // the object that built the config; evaluates counter data
};

// The Profiler Host object for one chip (RAII).
class HostObject {
 public:
  // counter_availability may be empty (offline); on a device pass the context's image.
  static StatusOr<HostObject> create(CuptiApi& api, const std::string& chip,
                                     const std::string& counter_availability);
  HostObject(HostObject&& other) noexcept;
  HostObject& operator=(HostObject&& other) noexcept;
  HostObject(const HostObject&) = delete;
  HostObject& operator=(const HostObject&) = delete;
  ~HostObject();

  CUpti_Profiler_Host_Object* get() const { return object_; }

 private:
  HostObject(CuptiApi* api, CUpti_Profiler_Host_Object* object) : api_(api), object_(object) {}
  CuptiApi* api_ = nullptr;
  CUpti_Profiler_Host_Object* object_ = nullptr;
};

// Validates every name for the chip (the error names the first unknown metric), builds the config image
// and counts the passes. Fails when passes > max_passes (0 = no limit).
StatusOr<MetricPlan> plan_metrics(CuptiApi& api, const std::string& chip,
                                  const std::vector<std::string>& metrics,
                                  const std::string& counter_availability, std::size_t max_passes);

// Every base metric of a chip (counters, ratios, throughputs), sorted. Append a rollup (".sum") to use one.
StatusOr<std::vector<std::string>> chip_base_metrics(CuptiApi& api, const std::string& chip);

// The chips the Profiler Host API of this libcupti knows.
StatusOr<std::vector<std::string>> supported_chips(CuptiApi& api);

}  // namespace flopscope::gpu
