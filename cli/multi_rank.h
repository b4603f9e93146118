// Several ranks of one run named on the command line: `report run.rank*.db`, `report DIR`.
#pragma once

#include <string>
#include <vector>

#include "analyzer/fleet/ranks.h"

namespace flopscope::cli {

// True when the arguments name more than one run, or a folder.
bool names_several_ranks(const std::vector<std::string>& args);

// Opens every part (a folder: its run databases and traces, sorted) and finds each one's rank.
StatusOr<std::vector<RankPart>> open_rank_parts(const std::vector<std::string>& args);

}  // namespace flopscope::cli
