// Device timeline facts from kernel records, per device and per stream: busy time is the union of the
// activity intervals (overlapping kernels count once), idle is the rest of the span between the first start
// and the last end, overlap is what a plain sum of durations would double count, launch gaps are the idle
// stretches between consecutive activities on a stream. Communication kernels (NCCL, RCCL, custom and
// symmetric-memory all-reduce) are classified apart from compute, so that they can be shown beside it.
#pragma once

#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include "db/model/records.h"

namespace flopscope {

enum class KernelCategory { kCompute, kCommunication, kMemcpy, kMemset };
const char* to_string(KernelCategory c);

// By kind, then by name (collective libraries and all-reduce kernels are communication).
KernelCategory kernel_category(const KernelRecord& k);
bool is_communication_kernel(std::string_view name);

struct TimelineFacts {
  int device = 0;
  std::int64_t stream = -1;  // -1: the whole device
  std::int64_t activities = 0;
  double span_ns = 0;                  // last end - first start
  double sum_ns = 0;                   // sum of durations
  double busy_ns = 0;                  // union of intervals
  double idle_ns = 0;                  // span - busy
  double overlap_ns = 0;               // sum - busy
  double compute_busy_ns = 0;          // union of compute kernels
  double communication_busy_ns = 0;    // union of communication kernels
  double compute_comm_overlap_ns = 0;  // time both ran at once
  std::int64_t gaps = 0;               // idle stretches between consecutive activities
  double gap_p50_ns = 0;
  double gap_max_ns = 0;
};

struct Timeline {
  std::vector<TimelineFacts> devices;  // one per device, by device number
  std::vector<TimelineFacts> streams;  // one per (device, stream)
};

Timeline timeline_facts(std::span<const KernelRecord> kernels);

// Length of the union of [start, end) intervals (sorted or not).
double union_length(std::vector<std::pair<std::int64_t, std::int64_t>> intervals);

}  // namespace flopscope
