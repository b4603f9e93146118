// The tables and lines the text-like diff reports (terminal, Markdown, HTML) share.
#pragma once

#include <string>
#include <vector>

#include "cli/printers/diff_format.h"
#include "cli/printers/diff_report.h"

namespace flopscope::cli {

TextTable module_table(const RunDiff& d, const DiffReportOptions& o);
// Changed op signatures, biggest time change first, at most o.top_ops; `more` gets the count left out.
TextTable op_table(const RunDiff& d, const DiffReportOptions& o, std::size_t* more);
TextTable gate_table(const std::vector<GateResult>& gates);
std::string run_line(const RunInfo& info, const RunTotals& t);  // "model.pt, 10 iterations, cpu"
std::string status_counts(const int counts[4]);                 // "1 VANISHED, 3 CHANGED, 40 UNCHANGED"

}  // namespace flopscope::cli
