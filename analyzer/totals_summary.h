// The one rule for a totals-only summary (a diff, a heatmap, the rank diff): no top-op list, which such a
// view does not show (it compares every op signature from the aggregates instead). The diff engine and the
// analysis facade (analyzer/analysis/run_analysis.h) both take it from here.
#pragma once

#include "analyzer/summary.h"

namespace flopscope {

SummaryOptions totals_summary_options(SummaryOptions base = {});

}  // namespace flopscope
