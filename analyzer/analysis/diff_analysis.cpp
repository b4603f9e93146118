#include "analyzer/analysis/diff_analysis.h"

#include <future>

namespace flopscope {

GateOutcome DiffAnalysis::outcome() const {
  if (first_error() != nullptr) return GateOutcome::kNotEvaluable;
  return failed_gates() > 0 ? GateOutcome::kFailed : GateOutcome::kPassed;
}

const GateResult* DiffAnalysis::first_error() const {
  for (const auto& g : gates) {
    if (g.error) return &g;
  }
  return nullptr;
}

int DiffAnalysis::failed_gates() const {
  int n = 0;
  for (const auto& g : gates) n += g.passed ? 0 : 1;
  return n;
}

DiffAnalysis analyze_diff(const RunAnalysis& a, const RunAnalysis& b, const DiffOptions& options,
                          const GateOptions& gates) {
  DiffAnalysis d;
  // The two summaries are independent: B's is made by a second thread (each analysis owns its own).
  auto summary_b = std::async(std::launch::async, [&b]() -> const RunSummary& { return b.summary(); });
  const RunSummary& sa = a.summary();
  d.diff = diff_runs(a.run(), sa, b.run(), summary_b.get(), options);
  if (d.diff.info_a.source_path.empty()) d.diff.info_a.source_path = a.label();
  if (d.diff.info_b.source_path.empty()) d.diff.info_b.source_path = b.label();
  d.gates = evaluate_gates(d.diff, gates);
  return d;
}

}  // namespace flopscope
