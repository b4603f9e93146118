// Several ranks of one run named on the command line: `report run.rank*.db`, `report DIR`.
#pragma once

#include <string>
#include <vector>

#include "analyzer/diff/gates.h"
#include "analyzer/fleet/ranks.h"
#include "cli/printers/diff_report.h"

namespace flopscope::cli {

// True when the arguments name more than one run, or a folder.
bool names_several_ranks(const std::vector<std::string>& args);

// Opens every part (a folder: its run databases and traces, sorted) and finds each one's rank.
StatusOr<std::vector<RankPart>> open_rank_parts(const std::vector<std::string>& args);

// True when `diff` was given two folders, or more than two files: two sets of ranks.
bool is_rank_set_diff(const std::vector<std::string>& args);

// Diffs rank R of set A with rank R of set B for every rank, with the gates on every rank; prints a
// per-rank summary and each rank's diff. Returns the exit code (1 when a gate failed on any rank).
int run_rank_diff(const std::vector<std::string>& args, const DiffOptions& options, const GateOptions& gates,
                  DiffReportOptions report, const std::string& format);

}  // namespace flopscope::cli
