// Two analyses compared: the diff engine's result, the gates evaluated on it, and what that means for a
// merge (the exit code), decided once for `diff`, the rank-matched diff and the GUI.
#pragma once

#include <vector>

#include "analyzer/analysis/run_analysis.h"
#include "analyzer/diff/diff.h"
#include "analyzer/diff/gates.h"

namespace flopscope {

// What a gated diff means: every gate passed, one failed, or one could not be evaluated (an AMBIGUOUS
// module, outputs that cannot be compared): never a pass on a guess.
enum class GateOutcome { kPassed, kFailed, kNotEvaluable };

struct DiffAnalysis {
  RunDiff diff;
  std::vector<GateResult> gates;

  GateOutcome outcome() const;
  const GateResult* first_error() const;  // the first gate that could not be evaluated, or null
  int failed_gates() const;
};

// The summaries each side has computed are reused (the GUI's, a report's).
DiffAnalysis analyze_diff(const RunAnalysis& a, const RunAnalysis& b, const DiffOptions& options,
                          const GateOptions& gates = {});

}  // namespace flopscope
