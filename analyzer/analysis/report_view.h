// The decisions a per-run report makes beyond the summary's numbers, made once for every format (table,
// Markdown, JSON, CSV), the GUI and the fleet views: whether an op's FLOPs are known, what an op's time share
// is a share of, and how FLOPs coverage is worded.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "analyzer/clock.h"
#include "analyzer/summary.h"

namespace flopscope {

// The denominator of a share. Every share printed names one.
enum class ShareOf {
  kHostTimePerIteration,    // host op time per iteration (CPU runs)
  kDeviceTimePerIteration,  // all kernel time per iteration, communication, copies and memsets included
  kComputeKernelTime,       // compute kernels only (coverage by time)
  kTotalFlops,
};
// "of host time per iteration", "of device time per iteration", ...
const char* to_string(ShareOf s);
// Column header: "time%" / "dev%".
const char* share_column(ShareOf s);

// An op whose FLOPs nobody counted (no formula, nothing counted below it) is unknown, never 0.
bool op_flops_known(const OpSummary& op);

struct TopOpView {
  const OpSummary* op = nullptr;
  bool flops_known = true;
  double time_ns = 0;  // on the report's clock: device time with kernels, else host time
  double share = 0;    // time_ns over ReportView::op_share_of; 0 when the denominator is 0
};

struct CoverageView {
  std::int64_t ops_with_formula = 0;
  std::int64_t ops_total = 0;
  double counted_share = 1;          // ops_with_formula / ops_total (1 with no ops)
  bool every_op_has_formula = true;  // nothing missing: not just "no gap"
  bool no_gap = true;                // no op carries FLOPs nobody counted (coverage_gaps empty)
  // The count and the sentence after it, both from this one rule so they never disagree: "479 of 479 ops
  // have a formula or sit inside one (100.0%)", then "every op has a FLOPs formula", or "no coverage gap:
  // the 25 ops without a formula have their work counted by ops inside them, or are communication (no
  // FLOPs by convention)".
  std::string count;
  std::string sentence;
};

struct ReportView {
  Clock clock = Clock::kHost;
  ShareOf op_share_of = ShareOf::kHostTimePerIteration;
  double share_denominator_ns = 0;
  std::vector<TopOpView> top_ops;
  CoverageView coverage;
};

ReportView make_report_view(const RunSummary& s, std::size_t top_ops);

}  // namespace flopscope
