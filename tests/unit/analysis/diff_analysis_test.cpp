#include "analyzer/analysis/diff_analysis.h"

#include <gtest/gtest.h>

namespace flopscope {
namespace {

RunData one_module_run(bool with_bias) {
  RunData r;
  r.info.iterations = 1;
  r.modules = {{0, kNoId, "", "Net"}, {1, 0, "fc", "Linear"}};
  if (with_bias) r.modules.push_back({2, 0, "bias", "Bias"});
  Id id = 0;
  for (Id m = 1; m < static_cast<Id>(r.modules.size()); ++m) {
    OpRecord o;
    o.id = id;
    o.sequence = id++;
    o.name = m == 1 ? "aten::linear" : "aten::add";
    o.module_id = m;
    o.duration_ns = 100;
    o.flops = 10;
    o.flops_source = FlopsSource::kFormula;
    r.ops.push_back(o);
  }
  return r;
}

TEST(DiffAnalysis, OutcomeOfTheGates) {
  GateOptions gates;
  gates.expect_vanished = {"bias"};
  DiffAnalysis passed = analyze_diff(RunAnalysis::of(one_module_run(true), "a.db"),
                                     RunAnalysis::of(one_module_run(false), "b.db"), {}, gates);
  EXPECT_EQ(passed.outcome(), GateOutcome::kPassed);
  EXPECT_EQ(passed.diff.info_a.source_path, "a.db");  // the facade names each side by what the user named
  DiffAnalysis failed = analyze_diff(RunAnalysis::of(one_module_run(true), "a.db"),
                                     RunAnalysis::of(one_module_run(true), "b.db"), {}, gates);
  EXPECT_EQ(failed.outcome(), GateOutcome::kFailed);
  EXPECT_EQ(failed.failed_gates(), 1);
  failed.gates.push_back({"expect-vanished x", false, "ambiguous", true});
  EXPECT_EQ(failed.outcome(), GateOutcome::kNotEvaluable);  // never a pass or a plain failure on a guess
  ASSERT_NE(failed.first_error(), nullptr);
  EXPECT_EQ(failed.first_error()->name, "expect-vanished x");
}

}  // namespace
}  // namespace flopscope
