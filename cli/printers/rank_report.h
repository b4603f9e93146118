// `flopscope report` over several ranks of one run: per-rank totals, the straggler line, per-module spread.
#pragma once

#include <string>

#include "analyzer/fleet/ranks.h"

namespace flopscope::cli {

std::string render_rank_report_table(const RankReport& r, int depth);
std::string render_rank_report_json(const RankReport& r);

}  // namespace flopscope::cli
