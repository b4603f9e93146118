#include "analyzer/diff/diff_cells.h"

#include <cmath>

#include "analyzer/format.h"

namespace flopscope {

std::string side_time_text(const SideCost& s) {
  return s.present && s.time.samples > 0 ? time_text(s.time.p50) : "-";
}

std::string side_flops_text(const SideCost& s) {
  if (!s.present) return "-";
  if (s.nested_flops <= 0) return s.flops_known ? flops_text(s.flops) : "?";
  // The work of ops inside a counted op is that op's: labelled, so a row never reads as costing nothing.
  const std::string nested = flops_text(s.nested_flops) + " nested";
  return s.flops > 0 ? flops_text(s.flops) + " + " + nested : nested;
}

bool listed_op(const OpDiff& o) {
  return ranked_op(o) && (o.status != DiffStatus::kUnchanged || o.b.time.p50 != o.a.time.p50);
}

std::string time_delta_text(const MedianDifference& t, TimeStatus status, bool both_sides) {
  if (!both_sides || status == TimeStatus::kUntested) return "";
  std::string s = (t.diff >= 0 ? "+" : "-") + time_text(std::fabs(t.diff));
  if (status == TimeStatus::kFaster || status == TimeStatus::kSlower)
    s += std::string(" ") + to_string(status);
  if (status == TimeStatus::kNotAssessable) s += " n/a";
  if (status == TimeStatus::kSingleSample) s += " (single sample)";
  return s;
}

}  // namespace flopscope
