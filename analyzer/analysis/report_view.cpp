#include "analyzer/analysis/report_view.h"

#include <algorithm>
#include <string>

#include "analyzer/format.h"

namespace flopscope {

const char* to_string(ShareOf s) {
  switch (s) {
    case ShareOf::kHostTimePerIteration:
      return "of host time per iteration";
    case ShareOf::kDeviceTimePerIteration:
      return "of device time per iteration";
    case ShareOf::kComputeKernelTime:
      return "of compute-kernel time";
    case ShareOf::kTotalFlops:
      return "of total FLOPs";
  }
  return "";
}

const char* share_column(ShareOf s) {
  switch (s) {
    case ShareOf::kHostTimePerIteration:
      return "time%";
    case ShareOf::kDeviceTimePerIteration:
      return "dev%";
    case ShareOf::kComputeKernelTime:
      return "compute%";
    case ShareOf::kTotalFlops:
      return "FLOPs%";
  }
  return "";
}

bool op_flops_known(const OpSummary& op) {
  return !(op.flops_source == "none" && op.flops == 0);
}

namespace {

CoverageView coverage_view(const RunSummary& s) {
  CoverageView c;
  c.ops_with_formula = s.ops_with_formula;
  c.ops_total = s.ops_total;
  c.counted_share =
      s.ops_total > 0 ? static_cast<double>(s.ops_with_formula) / static_cast<double>(s.ops_total) : 1;
  c.no_gap = s.coverage_gaps.empty();
  c.every_op_has_formula = s.ops_with_formula >= s.ops_total;
  if (!c.no_gap) {
    c.sentence = "ops whose FLOPs are unknown, not zero (no formula, or its arguments are missing):";
  } else if (c.every_op_has_formula) {
    c.sentence = "every op has a FLOPs formula";
  } else {
    // Ops without a formula whose work an op inside them counted (aten::linear over aten::addmm) leave no
    // gap.
    const std::int64_t without = s.ops_total - s.ops_with_formula;
    // Collectives have no FLOPs by convention (summary_facts: never a gap): said, not left to look missing.
    c.sentence = "no coverage gap: the " + std::to_string(without) + " op" + (without == 1 ? "" : "s") +
                 " without a formula " + (without == 1 ? "has its" : "have their") +
                 " work counted by ops inside them, or " + (without == 1 ? "is" : "are") +
                 " communication (no FLOPs by convention)";
  }
  c.count = std::to_string(c.ops_with_formula) + " of " + std::to_string(c.ops_total) +
            " ops have a formula or sit inside one (" + percent_text(c.counted_share) + ")";
  return c;
}

}  // namespace

ReportView make_report_view(const RunSummary& s, std::size_t top_ops) {
  ReportView v;
  v.clock = run_clock(s);
  const bool device = v.clock == Clock::kDevice;
  v.op_share_of = device ? ShareOf::kDeviceTimePerIteration : ShareOf::kHostTimePerIteration;
  v.share_denominator_ns = std::max(0.0, iteration_time(s, v.clock).mean);
  const std::size_t n = std::min(top_ops, s.top_ops.size());
  v.top_ops.reserve(n);
  for (std::size_t k = 0; k < n; ++k) {
    const OpSummary& op = s.top_ops[k];
    TopOpView row;
    row.op = &op;
    row.flops_known = op_flops_known(op);
    row.time_ns = device ? op.device_time_ns : op.time_ns;
    row.share = v.share_denominator_ns > 0 ? row.time_ns / v.share_denominator_ns : 0;
    v.top_ops.push_back(row);
  }
  v.coverage = coverage_view(s);
  return v;
}

}  // namespace flopscope
