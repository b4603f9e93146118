// The counter pass: one Range Profiler per CUDA context in auto-range + kernel-replay mode, so every
// kernel launch becomes one range whose metrics CUPTI collects by replaying the kernel once per pass.
// Ranges are decoded every `ranges_per_session` launches (and at the end) and evaluated with the
// Profiler Host object that built the configuration.
#pragma once

#include <cstdint>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "collector/cupti/counter_join.h"
#include "collector/cupti/cupti_api.h"
#include "collector/cupti/metric_plan.h"

namespace flopscope::gpu {

class CounterCollector {
 public:
  CounterCollector(CuptiApi& api, std::vector<std::string> metrics, std::size_t max_passes,
                   std::size_t ranges_per_session = 256);
  ~CounterCollector();
  CounterCollector(const CounterCollector&) = delete;
  CounterCollector& operator=(const CounterCollector&) = delete;

  // At a kernel launch's ENTER callback, before the kernel runs. Returns the launch's ordinal in its
  // context's counter session, or nothing when counters are off for this context (after an error).
  std::optional<std::uint64_t> on_launch(CUcontext ctx, std::uint32_t context_uid);
  // Decodes what the context collected; call before the context goes away.
  void on_context_destroy(std::uint32_t context_uid);
  // Decodes every context and disables the profilers.
  void finish();

  const std::vector<std::string>& metrics() const { return metrics_; }
  std::vector<CounterRange> take_ranges();
  std::int64_t dropped_ranges() const { return dropped_; }
  // The first failure (permission, unsupported chip, busy counters...); OK when none.
  Status error() const;
  std::size_t passes() const { return passes_; }

 private:
  struct Context {
    CUcontext ctx = nullptr;
    std::uint32_t uid = 0;
    CUpti_RangeProfiler_Object* object = nullptr;
    MetricPlan plan;
    std::string image;
    std::uint64_t next_ordinal = 0;
    std::uint64_t session_base = 0;
    std::size_t in_session = 0;
    bool running = false;
    bool failed = false;
  };

  Status setup(Context& c);
  Status configure_and_start(Context& c);
  Status decode(Context& c);
  void teardown(Context& c);
  void fail(Context& c, const Status& s);

  CuptiApi& api_;
  std::vector<std::string> metrics_;
  std::vector<const char*> names_;
  std::size_t max_passes_;
  std::size_t ranges_per_session_;
  std::size_t passes_ = 0;
  bool profiler_initialized_ = false;
  mutable std::mutex mu_;
  std::unordered_map<std::uint32_t, Context> contexts_;
  std::vector<CounterRange> ranges_;
  std::int64_t dropped_ = 0;
  Status error_;
};

}  // namespace flopscope::gpu
