// The tables and lines the text-like diff reports (terminal, Markdown, HTML) share.
#pragma once

#include <string>
#include <vector>

#include "cli/printers/diff_format.h"
#include "cli/printers/diff_report.h"

namespace flopscope::cli {

TextTable module_table(const RunDiff& d, const DiffReportOptions& o);
// Op signatures in the engine's rank (|time delta| first), at most o.top_ops, leaving out orphan-kernel and
// zero-cost rows and rows that did not move (listed_op); `more` gets the count of listed rows left out.
TextTable op_table(const RunDiff& d, const DiffReportOptions& o, std::size_t* more);
std::string op_ranking_text(const RunDiff& d);      // "ranked by |time delta| of P50 device time ..."
std::string orphan_kernels_text(const RunDiff& d);  // kernels of no op, summed; "" when none
// The category table (RunDiff::categories) and its heading, which names the clock and the shares'
// denominator.
TextTable category_table(const RunDiff& d);
std::string category_heading(const RunDiff& d);
TextTable gate_table(const std::vector<GateResult>& gates);
std::string run_line(const RunInfo& info, const RunTotals& t);  // "model.pt, 10 iterations, cpu"
std::string status_counts(const int counts[4]);                 // "1 VANISHED, 3 CHANGED, 40 UNCHANGED"

}  // namespace flopscope::cli
