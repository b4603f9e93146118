// Per-iteration device activity of a GPU run: how long each iteration kept the device busy, how long the
// device sat idle inside it, how long its kernels waited after their launch call, and whether the
// iteration was host-bound or device-bound. One owner for `report`'s per-iteration section (table,
// Markdown, JSON); docs/gpu.md states the definitions.
//
// Clocks: span, busy and idle are device time (kernel timestamps); a launch delay is a kernel's start
// (device) minus the end of the runtime call that launched it (host), both on the trace's one timeline
// (CUPTI puts device timestamps on the host clock), as HTA's kernel launch statistics define it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "db/model/records.h"

namespace flopscope {

enum class IterationBound { kDevice, kHost, kBlocked };
const char* to_string(IterationBound b);  // "device-bound", "host-bound", "blocked"

// The rule: device-bound when the device was idle for at most this share of the iteration's span. More
// idle than that is host-bound when the kernels started soon after their launch call (median launch delay
// at most kQueuedLaunchDelayNs: nothing was queued, the device waited for the host to launch), and blocked
// otherwise (launched work waited while the device idled: a synchronisation, another stream or rank).
inline constexpr double kHostBoundIdleShare = 0.5;
inline constexpr double kQueuedLaunchDelayNs = 100'000;

struct IterationActivity {
  int iteration = 0;               // the iteration number, as op.iteration and kernel.iteration
  std::int64_t start_ns = 0;       // device: first activity's start, from the run's start
  std::int64_t span_ns = 0;        // device: first activity's start to the last one's end
  std::int64_t busy_ns = 0;        // device: union of the activities' intervals (overlap counted once)
  std::int64_t idle_ns = 0;        // device: span_ns - busy_ns
  std::size_t activities = 0;      // kernels, copies and memsets in the iteration
  std::size_t launched = 0;        // of those, with their launch call in the trace
  double launch_delay_p50_ns = 0;  // median launch delay over `launched` (0 when none)
  double launch_delay_max_ns = 0;
  IterationBound bound = IterationBound::kDevice;
  double idle_share() const { return span_ns > 0 ? static_cast<double>(idle_ns) / span_ns : 0.0; }
};

struct IterationActivityReport {
  std::vector<IterationActivity> iterations;  // in iteration order; iterations without activities left out
  // Over the iterations: idle share of the span (median, worst and which), launch delay (median of the
  // iterations' medians, worst single delay), and how many were host-bound.
  double idle_share_p50 = 0;
  double idle_share_max = 0;
  int worst_idle_iteration = 0;
  double launch_delay_p50_ns = 0;
  double launch_delay_max_ns = 0;
  std::size_t host_bound = 0;
  std::size_t blocked = 0;
  bool any_launch = false;  // some activity had its launch call (Kineto, Nsight Systems); else no delays
  bool empty() const { return iterations.empty(); }
};

// From a run's device activities (orphans, outside every iteration, left out). Empty for a run without any.
IterationActivityReport iteration_activity(std::span<const KernelRecord> kernels);

// The summary line: "device idle P50 23.1% of the iteration span, worst 41.0% (iteration 3); launch delay
// P50 12.3 µs, worst 40 µs; 5 device-bound, 0 host-bound, 0 blocked (...the rule...)".
std::string iteration_activity_summary(const IterationActivityReport& r);
// The verdict's rule in words, for every format.
std::string bound_rule_text();

}  // namespace flopscope
