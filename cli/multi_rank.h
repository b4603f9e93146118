// Several ranks of one run named on the command line: `report run.rank*.db`, `report DIR` (opened by
// analyzer/fleet/rank_parts.h), and `diff A.rank*.db B.rank*.db` (ranks matched there too:
// names_two_rank_sets, open_rank_pairs).
#pragma once

#include <string>
#include <vector>

#include "analyzer/diff/gates.h"
#include "analyzer/fleet/rank_parts.h"
#include "analyzer/fleet/ranks.h"
#include "cli/printers/diff_report.h"

namespace flopscope::cli {

// Diffs rank R of set A with rank R of set B for every rank, with the gates on every rank; prints a
// per-rank summary and each rank's diff. Returns the exit code (1 when a gate failed on any rank).
int run_rank_diff(const std::vector<std::string>& args, const DiffOptions& options, const GateOptions& gates,
                  DiffReportOptions report, const std::string& format);

}  // namespace flopscope::cli
