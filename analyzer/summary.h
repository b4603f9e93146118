// The per-run analysis every presentation shares (CLI reports, diff, GUI): the module tree with self and
// inclusive costs per iteration, latency statistics over iterations, top ops, FLOPs coverage and kernel
// attribution. Pure function of a RunData.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "analyzer/latency.h"
#include "analyzer/peaks.h"
#include "analyzer/tensor_factor.h"
#include "analyzer/timeline.h"
#include "db/model/run_data.h"

namespace flopscope {

// Costs of one iteration (one forward pass). FLOPs/MACs/bytes are means over iterations.
struct Cost {
  double flops = 0;
  double macs = 0;
  double bytes_read = 0;
  double bytes_written = 0;
  double measured_flops = 0;  // from hardware counters (kernels), when present
  double dram_bytes = 0;      // measured DRAM read + write, when present
  double dram_read = 0;       // the measured split, where the counters gave it (else both 0)
  double dram_written = 0;
  double dram_unsplit = 0;  // part of dram_bytes measured as a total only: read/written then unknown
  double tensor_inst = 0;   // measured tensor-pipe instructions (a count, not FLOPs)
  double tensor_flops = 0;  // tensor_inst x the architecture's factor (RunSummary::tensor_factor), else 0
  double ops = 0;           // op calls per iteration (all depths)
  double kernels = 0;       // kernels per iteration
  double bytes() const { return bytes_read + bytes_written; }
  // FLOPs per byte of minimum traffic; 0 when no bytes.
  double intensity() const { return bytes() > 0 ? flops / bytes() : 0; }
  // dram_read and dram_written describe all of dram_bytes (no kernel measured the total only).
  bool dram_split_known() const { return dram_unsplit == 0; }
};

struct ModuleSummary {
  Id module_id = kNoId;
  std::string path;  // "" for the root
  std::string type;
  int depth = 0;              // root 0
  int parent = -1;            // index into RunSummary::modules
  std::vector<int> children;  // indices, in module order
  double calls = 0;           // calls per iteration (contiguous spans of its ops)
  Cost self;
  Cost inclusive;
  // Host op time per iteration (sum of outermost op durations), self and inclusive, over iterations.
  LatencyStats self_time;
  LatencyStats inclusive_time;
  // Device time per iteration of kernels attributed to this module subtree (traces, CUPTI); orphan kernels
  // (launched outside the profiling window) are not in it.
  LatencyStats gpu_time;
  LatencyStats gpu_self_time;  // the same for kernels attributed to this module itself (not its children)
  // The part of gpu_time spent in communication kernels (NCCL, RCCL, all-reduce), per iteration (mean).
  double comm_time_ns = 0;
  // FLOPs are a lower bound when ops with unknown FLOPs sit in the subtree: then flops_complete is false and
  // unknown_time_share says how much of the subtree's time (device time when the run has kernels, else host
  // time) runs under them.
  bool flops_complete = true;
  double unknown_time_share = 0;
  double share_flops = 0;  // inclusive FLOPs / total FLOPs
  double share_time = 0;   // inclusive time P50 / total P50 (gpu time when the run has kernels)
  // Inclusive FLOPs and bytes over the mean device time per iteration, and the bound under the peak.
  Roofline rates;
};

struct OpSummary {
  std::string name;
  std::string module_path;
  double calls = 0;  // per iteration
  double flops = 0;  // per iteration
  double bytes = 0;
  double time_ns = 0;         // host: per iteration, mean, inclusive duration
  double device_time_ns = 0;  // device: kernels launched in the op's subtree, per iteration
  std::string flops_source;
  Roofline rates;  // flops and bytes over device_time_ns, and the bound under the peak
};

// Ops that carry FLOPs nobody counted: no formula, and no descendant that counted FLOPs (zero-FLOP children
// such as empty or view do not cover them), or kernels launched by the op itself.
struct CoverageGap {
  std::string name;
  std::int64_t count = 0;           // over the whole run
  double time_ns = 0;               // host: inclusive time over the whole run
  double share_of_time = 0;         // of all outermost-op host time
  double device_time_ns = 0;        // kernels under it whose FLOPs nobody counted, whole run
  double share_of_device_time = 0;  // of all compute kernel time in iterations
  std::string
      note;  // why the FLOPs are unknown although a formula exists (arguments not recorded or refused)
};

// How much of the run's time has known FLOPs.
struct CoverageByTime {
  // Over compute kernels in iterations (communication, copies and memsets do no FLOPs by convention).
  double known_device_share = 0;     // kernel time under an op with a formula / all compute kernel time
  double known_host_share = 0;       // host time of ops with a formula (outermost such) / outermost-op time
  double unlinked_device_share = 0;  // kernel time no op launched (FLOPs unknown)
  bool flops_complete = true;        // no gap and no unlinked kernel time
};

// Kernels launched before the profiling window (no launch in the trace): kept, shown apart, and left out of
// every per-iteration statistic.
struct OrphanKernels {
  std::int64_t kernels = 0;
  double time_ns = 0;
};

struct AttributionStats {
  std::int64_t kernels = 0;
  std::int64_t kernels_with_op = 0;
  std::int64_t kernels_with_module = 0;
  double kernel_time_ns = 0;
  double kernel_time_attributed_ns = 0;        // to a module other than the root
  std::int64_t kernels_from_graph_replay = 0;  // replayed by CUDA-graph launches (the importer's count)
};

struct RunSummary {
  RunInfo info;
  int iterations = 0;
  std::vector<ModuleSummary> modules;  // pre-order; [0] is the root
  Cost total;
  LatencyStats iteration_time;  // host op time per iteration
  LatencyStats iteration_gpu_time;
  bool has_kernels = false;
  std::vector<OpSummary> top_ops;
  std::vector<CoverageGap> coverage_gaps;
  std::int64_t ops_total = 0;
  std::int64_t ops_with_formula = 0;
  CoverageByTime coverage;
  OrphanKernels orphans;
  std::optional<DevicePeak> peak;  // the override, else the table's row for the device, if any
  // The device's architecture and whether its tensor-pipe instructions convert to FLOPs (tensor_flops).
  std::optional<TensorPipeFactor> tensor_factor;
  Roofline roofline;  // of the total over the P50 device time per iteration (with a peak)
  Timeline timeline;  // busy, idle, overlap and gaps per device and stream (all kernels, orphans too)
  AttributionStats attribution;
  std::vector<QualityIssue> quality;
  // Summarized from the stored aggregates (the run was read without its op and kernel rows): module costs,
  // times, totals and the roofline are as from the rows; calls, top ops, coverage, the timeline and kernel
  // attribution are left empty.
  bool from_aggregates = false;

  // Index of a module by path, -1 when absent.
  int find(const std::string& path) const;
  // Rebuilds path_index from modules (summarize() calls it; so must code that edits modules).
  void index_paths();
  // Hash of a path -> module index; find() compares the paths. Not keyed by the path text itself: a
  // deep hierarchy's paths grow with depth squared and one copy of them is enough.
  std::unordered_multimap<std::size_t, int> path_index;
};

struct SummaryOptions {
  std::size_t top_ops = 20;
  std::optional<DevicePeak> peak;  // overrides the peak table (--peak)
};

// From the rows; from the stored summary facts when the run was read without them; else from
// run.aggregates (summarize_aggregates), which leaves what needs the op tree empty.
RunSummary summarize(const RunData& run, const SummaryOptions& options = {});
// What summarize() derives from the op and kernel rows, before options apply: written with a run
// (SummaryFactsSink) so that a run read without its rows summarizes the same, to the digit.
SummaryFacts summary_facts(const RunData& run);
RunSummary summarize_facts(const RunData& run, const SummaryFacts& facts, const SummaryOptions& options = {});
RunSummary summarize_aggregates(const RunData& run, const SummaryOptions& options = {});

}  // namespace flopscope
