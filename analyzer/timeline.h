// Device timeline facts from a run's kernels (their compact rows, analyzer/fact_rows.h), per device and per
// stream: busy time is the union of the activity intervals (overlapping kernels count once), idle is the
// rest of the span between the first start and the last end, overlap is what a plain sum of durations would
// double count, launch gaps are the idle stretches between consecutive activities on a stream.
// Communication kernels (NCCL, RCCL, custom and symmetric-memory all-reduce) are classified apart from
// compute, so that they can be shown beside it.
#pragma once

#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "db/model/records.h"
#include "db/model/summary_facts.h"

namespace flopscope {

enum class KernelCategory { kCompute, kCommunication, kMemcpy, kMemset };
const char* to_string(KernelCategory c);

// By kind, then by name (collective libraries and all-reduce kernels are communication).
KernelCategory kernel_category(const KernelRecord& k);
bool is_communication_kernel(std::string_view name);

// kernel_category over a run's kernels: a million kernels carry a few dozen names, so each name is tested
// once (the test reads the whole name; on a 100k-kernel trace it was an eighth of the import's CPU time).
class KernelCategories {
 public:
  KernelCategory operator()(const KernelRecord& k);

 private:
  struct Hash {
    using is_transparent = void;
    std::size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
  };
  std::unordered_map<std::string, bool, Hash, std::equal_to<>> communication_;
};

// TimelineFacts and Timeline: db/model/summary_facts.h (stored with the run). The kernels' categories were
// decided when the rows were taken in (FactRows::add_kernels).
struct FactKernel;
Timeline timeline_facts(std::span<const FactKernel> kernels);

// Length of the union of [start, end) intervals (sorted or not).
double union_length(std::vector<std::pair<std::int64_t, std::int64_t>> intervals);

}  // namespace flopscope
