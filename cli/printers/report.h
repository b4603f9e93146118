// The per-run report (`flopscope report`) in four formats. Table and Markdown are for people; JSON is the
// versioned contract for CI (docs/report-json.md); CSV is one row per module for spreadsheets.
#pragma once

#include <string>

#include "analyzer/summary.h"
#include "db/model/run_data.h"

namespace flopscope::cli {

inline constexpr int kReportJsonVersion = 1;

enum class SortKey { kModel, kFlops, kTime, kBytes };

struct ReportOptions {
  int depth = -1;  // deepest module level shown; -1: all
  SortKey sort = SortKey::kModel;
  std::size_t top_ops = 15;
  bool full_coverage = false;  // list every op name without a formula (else the top 10)
};

// Module indices in display order: pre-order, children sorted by the key, cut at the depth.
std::vector<int> module_order(const RunSummary& s, const ReportOptions& o);

std::string render_report_table(const RunData& run, const RunSummary& s, const ReportOptions& o);
std::string render_report_markdown(const RunData& run, const RunSummary& s, const ReportOptions& o);
std::string render_report_json(const RunData& run, const RunSummary& s, const ReportOptions& o);
std::string render_report_csv(const RunData& run, const RunSummary& s, const ReportOptions& o);

}  // namespace flopscope::cli
