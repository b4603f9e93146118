// The per-run report (`flopscope report`) in four formats. Table and Markdown are for people; JSON is the
// versioned contract for CI (docs/report-json.md); CSV is one row per module for spreadsheets.
#pragma once

#include <string>

#include "analyzer/activations/candidate_verify.h"
#include "analyzer/activations/candidates.h"
#include "analyzer/iteration_activity.h"
#include "analyzer/memory_usage.h"
#include "analyzer/summary.h"
#include "db/model/run_data.h"

namespace flopscope::cli {

inline constexpr int kReportJsonVersion = 8;

enum class SortKey { kModel, kFlops, kTime, kBytes };

struct ReportOptions {
  int depth = -1;  // deepest module level shown; -1: all
  SortKey sort = SortKey::kModel;
  std::size_t top_ops = 15;
  bool full_coverage = false;  // list every op name without a formula (else the top 10)
  bool kernels = false;        // add the per-kernel-name table (JSON: kernels[])
  // Per-iteration device activity (RunAnalysis::iteration_activity); null or empty: no such section.
  const IterationActivityReport* activity = nullptr;
  // Memory per module and op (RunAnalysis::memory); null or empty: no such section.
  const MemoryUsage* memory = nullptr;
};

// ", from ProfilerStep#" when the run says how its iterations were found, else "".
std::string iterations_found_text(const RunInfo& info);
// The per-iteration section (a table, or Markdown): one row per iteration, then the summary line.
std::string iteration_activity_text(const IterationActivityReport& r, bool markdown);

// The Memory section (report_memory.cpp): what is counted where, on which clock; then per device, the top
// `top` modules and ops by bytes allocated. "" for a run without memory events.
std::string memory_convention_text(const MemoryUsage& m, int iterations);
std::string memory_text(const MemoryUsage& m, const RunSummary& s, std::size_t top, bool markdown);

// Module indices in display order: pre-order, children sorted by the key, cut at the depth.
std::vector<int> module_order(const RunSummary& s, const ReportOptions& o);

std::string render_report_table(const RunData& run, const RunSummary& s, const ReportOptions& o);
std::string render_report_markdown(const RunData& run, const RunSummary& s, const ReportOptions& o);
// With `candidates`, the candidate list is the report's "candidates" member (`report --candidates`), each
// with its ablation check when `verified` is given (`--verify`).
std::string render_report_json(const RunData& run, const RunSummary& s, const ReportOptions& o,
                               const CandidateReport* candidates = nullptr,
                               const CandidateVerifications* verified = nullptr);
// The JSON report writes every module's value per iteration (dense): refused past --max-cells so that a
// small crafted trace cannot produce gigabytes. The other formats print aggregates and need no limit.
Status check_report_json_size(const std::string& path, const RunSummary& s);
// Shared device-side wording (report_device.cpp): the coverage-by-time sentence, and the timeline / orphan
// / roofline lines (each starting with prefix). ">= FLOPs" is the core's lower_bound_flops_text.
std::string coverage_by_time_text(const RunSummary& s);
std::string device_facts_text(const RunSummary& s, const std::string& prefix);
// Achieved rates over device time and the roofline bound, as three cells: FLOP/s (">=" when a lower bound;
// "unknown" for an op without a formula, and so its bytes/s), bytes/s, and the bound ("memory 8.9%": the roof
// and the share of it reached;
// "-" without a peak or device time).
struct RatesText {
  std::string flops, bytes, bound;
  bool above_roof = false;  // the bound's share is over 100% ("^" marks it; kAboveRoofNote says why)
};
// Printed under a table with a "^" in its bound column.
inline constexpr const char* kAboveRoofNote =
    "^ above 100% of the roof: more analytic bytes (or FLOPs) per second than the peak moves; the operands "
    "were reused from cache (L2), so the DRAM traffic was below the analytic bytes";
RatesText rates_text(const Roofline& r, double device_ns, bool flops_known, bool lower_bound);

// `report --kernels`: one row per kernel name, by device time (at most `limit` rows).
std::string render_kernels_table(const RunData& run, std::size_t limit);

std::string render_report_csv(const RunData& run, const RunSummary& s, const ReportOptions& o);
// `report --format csv --kernels`: the per-kernel-name table as CSV, one row per kernel name.
std::string render_kernels_csv(const RunData& run);

}  // namespace flopscope::cli
