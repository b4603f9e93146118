// The lines under a diff's summary sentence that every front end prints (the terminal, Markdown and HTML
// reports, the GUI's diff tab): the end-to-end totals with their relative changes and the time verdict, and
// the module counts by verdict with the time counts. Worded here once; front ends only escape them.
#pragma once

#include <string>

#include "analyzer/diff/diff.h"

namespace flopscope {

// "FLOPs 1.2 G -> 1.1 G (-8.3%); bytes ...; ops 120 -> 110; host time P50 2 ms -> 1.9 ms: ..."
std::string end_to_end_text(const RunDiff& d);
// "4 VANISHED, 40 UNCHANGED; time: 1 slower, 0 faster" (and the not-assessable note when it applies)
std::string module_counts_line(const RunDiff& d);

}  // namespace flopscope
