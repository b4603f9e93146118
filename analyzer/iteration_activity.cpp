#include "analyzer/iteration_activity.h"

#include <algorithm>
#include <map>
#include <utility>

#include "analyzer/format.h"
#include "analyzer/iterations.h"
#include "analyzer/latency.h"

namespace flopscope {

const char* to_string(IterationBound b) {
  switch (b) {
    case IterationBound::kHost:
      return "host-bound";
    case IterationBound::kBlocked:
      return "blocked";
    case IterationBound::kDevice:
      break;
  }
  return "device-bound";
}

namespace {

// One iteration's activities as [start, end) intervals and launch delays.
struct Gathered {
  std::vector<std::pair<std::int64_t, std::int64_t>> intervals;
  std::vector<double> delays;
};

IterationActivity measure(int iteration, Gathered& g) {
  IterationActivity a;
  a.iteration = iteration;
  a.activities = g.intervals.size();
  a.launched = g.delays.size();
  std::sort(g.intervals.begin(), g.intervals.end());
  a.start_ns = g.intervals.front().first;
  std::int64_t end = a.start_ns, run_start = a.start_ns, run_end = a.start_ns;
  for (const auto& [s, e] : g.intervals) {
    end = std::max(end, e);
    if (s > run_end) {  // a gap: the busy stretch so far is closed
      a.busy_ns += run_end - run_start;
      run_start = s;
    }
    run_end = std::max(run_end, e);
  }
  a.busy_ns += run_end - run_start;
  a.span_ns = end - a.start_ns;
  a.idle_ns = a.span_ns - a.busy_ns;
  if (!g.delays.empty()) {
    std::sort(g.delays.begin(), g.delays.end());
    a.launch_delay_p50_ns = percentile_sorted(g.delays, 50);
    a.launch_delay_max_ns = g.delays.back();
  }
  if (a.idle_share() <= kHostBoundIdleShare) {
    a.bound = IterationBound::kDevice;
  } else {
    // Without launch calls in the trace nothing says work was queued: the device waited for the host.
    const bool queued = a.launched > 0 && a.launch_delay_p50_ns > kQueuedLaunchDelayNs;
    a.bound = queued ? IterationBound::kBlocked : IterationBound::kHost;
  }
  return a;
}

}  // namespace

IterationActivityReport iteration_activity(std::span<const KernelRecord> kernels) {
  IterationActivityReport r;
  std::map<int, Gathered> by_iteration;
  for (const KernelRecord& k : kernels) {
    if (is_orphan(k)) continue;
    Gathered& g = by_iteration[k.iteration];
    g.intervals.emplace_back(k.start_ns, k.start_ns + k.duration_ns);
    if (k.launch.known()) {
      g.delays.push_back(static_cast<double>(k.start_ns - (k.launch.start_ns + k.launch.duration_ns)));
    }
  }
  if (by_iteration.empty()) return r;
  std::vector<double> shares, delays;
  for (auto& [iteration, g] : by_iteration) {
    r.iterations.push_back(measure(iteration, g));
    const IterationActivity& a = r.iterations.back();
    shares.push_back(a.idle_share());
    if (a.launched > 0) {
      delays.push_back(a.launch_delay_p50_ns);
      r.launch_delay_max_ns =
          r.any_launch ? std::max(r.launch_delay_max_ns, a.launch_delay_max_ns) : a.launch_delay_max_ns;
      r.any_launch = true;
    }
    if (a.bound == IterationBound::kHost) ++r.host_bound;
    if (a.bound == IterationBound::kBlocked) ++r.blocked;
    if (r.iterations.size() == 1 || a.idle_share() > r.idle_share_max) {
      r.idle_share_max = a.idle_share();
      r.worst_idle_iteration = a.iteration;
    }
  }
  std::sort(shares.begin(), shares.end());
  r.idle_share_p50 = percentile_sorted(shares, 50);
  if (!delays.empty()) {
    std::sort(delays.begin(), delays.end());
    r.launch_delay_p50_ns = percentile_sorted(delays, 50);
  }
  return r;
}

std::string bound_rule_text() {
  return "host-bound: device idle > " + percent_text(kHostBoundIdleShare) +
         " of the span and launch delay P50 <= " + time_text(kQueuedLaunchDelayNs) +
         "; blocked: as idle, with longer launch delays";
}

std::string iteration_activity_summary(const IterationActivityReport& r) {
  if (r.empty()) return "";
  const auto n = static_cast<long long>(r.iterations.size());
  std::string out = "device idle P50 " + percent_text(r.idle_share_p50) + " of the iteration span, worst " +
                    percent_text(r.idle_share_max) + " (iteration " + std::to_string(r.worst_idle_iteration) +
                    "); ";
  out += r.any_launch ? "launch delay P50 " + time_text(r.launch_delay_p50_ns) + ", worst " +
                            time_text(r.launch_delay_max_ns) + "; "
                      : "launch delay unknown (no launch calls in the trace); ";
  out += std::to_string(n - static_cast<long long>(r.host_bound + r.blocked)) + " device-bound, " +
         std::to_string(r.host_bound) + " host-bound, " + std::to_string(r.blocked) + " blocked (" +
         bound_rule_text() + ")";
  return out;
}

}  // namespace flopscope
