// What summarize() derives from the op tree and the kernel rows, before it rolls modules up and applies the
// options (top-N, the device peak): stored with a run (schema 010) so that `report` reads a few thousand
// rows instead of walking millions. analyzer/summary_facts.cpp computes it (the one owner of those rules);
// db/ only stores and reads it back. Sums are over the whole run, not per iteration. Plain structs.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "db/model/records.h"

namespace flopscope {

// (iteration index, value): an iteration's index in the run's ascending iteration numbers, zeros left out.
using IterationValues = std::vector<std::pair<std::uint32_t, double>>;

// One module of the summary's tree: its own ops' and kernels' costs (after fused ops' inner work moved to
// the submodules it belongs to) and what the op walk found there.
struct ModuleFacts {
  Id module_id = kNoId;  // a module of the run's tree (the root's id for work no module names)
  double ops = 0, flops = 0, macs = 0, bytes_read = 0, bytes_written = 0, kernels = 0;
  double measured_flops = 0, dram_bytes = 0, dram_read = 0, dram_written = 0, dram_unsplit = 0,
         tensor_inst = 0;
  double calls = 0;              // contiguous spans of its outermost ops (and fused calls)
  double comm_ns = 0;            // communication kernel time
  double unknown_device_ns = 0;  // compute kernel time whose FLOPs nobody counted
  double unknown_host_ns = 0;    // host time of outermost gap ops
  bool gap = false;              // some op here has unknown FLOPs
  IterationValues host_ns;       // outermost ops' durations (with fused split moves)
  IterationValues device_ns;     // kernels in iterations
};

// Outermost ops grouped by (name, module), in the order summarize() ranks from.
struct TopOpFacts {
  std::string name;
  Id module_id = kNoId;
  double calls = 0, flops = 0, bytes = 0, time_ns = 0, device_time_ns = 0;
  FlopsSource flops_source = FlopsSource::kNone;  // of the group's last op
};

// Ops with unknown FLOPs, grouped by name (name order).
struct GapFacts {
  std::string name;
  std::int64_t count = 0;
  double time_ns = 0;
  double device_time_ns = 0;
  std::string note;
};

// Device timeline facts per device (stream -1) or per stream: analyzer/timeline.h says what each means.
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

struct SummaryFacts {
  bool present = false;  // false: not stored with the run (an older file, or a sink that did not compute it)
  bool has_kernels = false;
  std::int64_t ops_total = 0, ops_with_formula = 0;
  std::int64_t orphan_kernels = 0;
  double orphan_ns = 0;
  // Kernel attribution, all kernels.
  std::int64_t kernels = 0, kernels_with_op = 0, kernels_with_module = 0;
  double kernel_time_ns = 0, kernel_time_attributed_ns = 0;
  // Coverage by time: compute kernels in iterations, and outermost ops.
  double compute_ns = 0, known_compute_ns = 0, unlinked_compute_ns = 0;
  double outer_host_ns = 0, known_host_ns = 0;
  std::vector<ModuleFacts> modules;  // the summary's tree in pre-order
  std::vector<TopOpFacts> top_ops;
  std::vector<GapFacts> gaps;
  Timeline timeline;
};

}  // namespace flopscope
