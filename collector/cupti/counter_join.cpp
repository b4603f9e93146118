#include "collector/cupti/counter_join.h"

#include <map>
#include <utility>

#include "collector/cupti/kernel_name.h"
#include "collector/cupti/metric_roles.h"

namespace flopscope::gpu {

CounterJoinResult join_counters(const std::vector<std::string>& metrics,
                                const std::vector<CountedLaunch>& launches,
                                const std::vector<CounterRange>& ranges, std::vector<KernelRecord>& kernels) {
  CounterJoinResult r;
  std::map<std::pair<std::uint32_t, std::uint64_t>, const CountedLaunch*> by_ordinal;
  for (const auto& l : launches) by_ordinal[{l.context, l.ordinal}] = &l;
  std::unordered_map<std::int64_t, std::vector<std::size_t>> by_correlation;
  for (std::size_t i = 0; i < kernels.size(); ++i) {
    if (kernels[i].kind == KernelKind::kKernel) by_correlation[kernels[i].correlation].push_back(i);
  }
  std::map<std::pair<std::uint32_t, std::uint64_t>, bool> used;
  for (const auto& range : ranges) {
    auto it = by_ordinal.find({range.context, range.ordinal});
    if (it == by_ordinal.end()) {
      ++r.range_without_launch;
      continue;
    }
    used[it->first] = true;
    const CountedLaunch& launch = *it->second;
    auto k = by_correlation.end();
    for (std::uint32_t corr : launch.correlations) {
      k = by_correlation.find(corr);
      if (k != by_correlation.end()) break;
    }
    if (k == by_correlation.end()) {
      ++r.no_traced_kernel;
      continue;
    }
    // One launch API call launches one kernel; with several records (kernel replay emitting one per pass)
    // the counters go to the first and the rest stay without counters.
    KernelRecord& kernel = kernels[k->second.front()];
    if (!same_kernel_name(kernel.name, launch.symbol)) {
      ++r.name_mismatch;
      continue;
    }
    apply_metric_values(metrics, range.values, kernel);
    ++r.joined;
  }
  for (const auto& [key, launch] : by_ordinal) {
    if (!used.count(key)) ++r.launch_without_range;
  }
  return r;
}

std::vector<QualityIssue> CounterJoinResult::issues() const {
  std::vector<QualityIssue> out;
  auto add = [&](std::int64_t n, QualityCode code, const char* detail) {
    if (n > 0) out.emplace_back(code, n, detail);
  };
  add(name_mismatch, QualityCode::counter_range_name_mismatch,
      "the i-th counter range's launch names a different kernel than the traced kernel; counters dropped");
  add(no_traced_kernel, QualityCode::counter_range_without_kernel,
      "a launch had counters but no kernel activity record (dropped by CUPTI?)");
  add(range_without_launch, QualityCode::counter_range_without_launch,
      "more counter ranges than launch callbacks in the context (kernels launched without an API call?)");
  add(launch_without_range, QualityCode::launch_without_counter_range,
      "a kernel launch got no counter range (dropped range or profiling stopped early)");
  return out;
}

}  // namespace flopscope::gpu
