// The cells of a diff row as every front end shows them (the CLI's tables, Markdown and HTML, the GUI's
// diff table): one side's time and FLOPs, and the time change worded by the engine's TimeStatus.
#pragma once

#include <string>

#include "analyzer/diff/diff.h"

namespace flopscope {

std::string side_time_text(const SideCost& s);  // P50 per iteration, "-" when absent or never timed
// "-" when absent, "?" when no op of it has a count; FLOPs of ops inside a counted op as "9.83 GFLOPs nested"
// (after the row's own, "1 GFLOPs + 9.83 GFLOPs nested", when some of its calls count and some are inside).
std::string side_flops_text(const SideCost& s);
// Time is its own status: "+1.2 ms slower", "+3.0 µs" (no significant change), "+3.0 µs n/a" (not
// assessable across processes), "+3.0 µs (single sample)" (a side of one iteration: no interval), "" when
// untested or when one side is absent (a vanished module's time
// change is no measurement).
// An op row the reports' op list shows: ranked (ranked_op) and moved, structurally or in time (a row that
// is UNCHANGED with no time difference says nothing: a self-diff lists none).
bool listed_op(const OpDiff& o);
std::string time_delta_text(const MedianDifference& t, TimeStatus status, bool both_sides);

}  // namespace flopscope
