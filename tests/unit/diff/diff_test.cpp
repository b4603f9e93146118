#include "analyzer/diff/diff.h"

#include <gtest/gtest.h>

#include <cmath>
#include <optional>
#include <random>
#include <regex>

#include "analyzer/diff/between_runs.h"
#include "analyzer/diff/compare.h"
#include "analyzer/diff/gates.h"
#include "analyzer/format.h"
#include "diff_fixtures.h"

namespace flopscope {
namespace {

// Sixty modules whose A and B times come from one distribution (a self-diff): at 95% per interval a few
// are called faster or slower by chance; at the Bonferroni level for sixty tests, none.
TEST(TimeTests, FamilyLevelKeepsASelfDiffQuiet) {
  EXPECT_NEAR(normal_quantile_two_sided(0.95), 1.959964, 1e-5);
  EXPECT_NEAR(family_level(60), 1 - 0.05 / 60, 1e-12);
  std::mt19937_64 rng(7);
  std::normal_distribution<double> noise(1000.0, 50.0);
  int alone = 0, jointly = 0;
  for (int m = 0; m < 60; ++m) {
    std::vector<double> a(20), b(20);
    for (auto& x : a) x = noise(rng);
    for (auto& x : b) x = noise(rng);
    alone += shift_interval(a, b).significant ? 1 : 0;
    MedianDifference wide = shift_interval(a, b, family_level(60));
    jointly += wide.significant ? 1 : 0;
    MedianDifference narrow = shift_interval(a, b);
    EXPECT_LE(wide.ci_low, narrow.ci_low);
    EXPECT_GE(wide.ci_high, narrow.ci_high);
  }
  EXPECT_GT(alone, 0);
  EXPECT_EQ(jointly, 0);
  // A real shift of 20% still shows at the family level.
  std::vector<double> a(20), b(20);
  for (auto& x : a) x = noise(rng);
  for (auto& x : b) x = 1.2 * noise(rng);
  EXPECT_TRUE(shift_interval(a, b, family_level(60)).significant);
}

using testing::FixtureOptions;
using testing::make_run;
using testing::Variant;

const ModuleDiff& module(const RunDiff& d, const std::string& path) {
  for (const auto& m : d.modules) {
    if (m.path == path) return m;
  }
  throw std::runtime_error("no module " + path);
}

const std::string kBias = "layers.0.attn.position_adaptive_bias";

TEST(Diff, SelfDiffIsAllUnchanged) {
  FixtureOptions three;
  three.processes = 3;  // one process would make time not assessable (and warn)
  RunData a = make_run(Variant::kV1, three);
  RunDiff d = diff_runs(a, a);
  ASSERT_FALSE(d.modules.empty());
  for (const auto& m : d.modules) {
    EXPECT_EQ(m.status, DiffStatus::kUnchanged) << m.path;
    EXPECT_EQ(m.verdict, Verdict::kUnchanged) << m.path;
    EXPECT_FALSE(m.headline);
  }
  for (const auto& o : d.ops) EXPECT_EQ(o.status, DiffStatus::kUnchanged) << o.name;
  for (const auto& p : d.params) EXPECT_FALSE(p.changed) << p.name;
  EXPECT_TRUE(d.warnings.empty());
  EXPECT_FALSE(d.time_significant);
  GateOptions g;
  g.forbid_active = {"*does_not_exist*"};
  g.max_regression = RegressionLimits{0.0, 0.0, 0.0, 0.0, 0.0};
  for (const auto& r : evaluate_gates(d, g)) EXPECT_TRUE(r.passed) << r.name << ": " << r.message;
}

TEST(Diff, RemovedModuleVanishesWithItsWeightsErased) {
  RunDiff d = diff_runs(make_run(Variant::kV1), make_run(Variant::kV2));
  const ModuleDiff& m = module(d, kBias);
  EXPECT_EQ(m.status, DiffStatus::kVanished);
  EXPECT_EQ(m.verdict, Verdict::kVanished);
  EXPECT_TRUE(m.headline);
  EXPECT_FALSE(m.b.present);
  EXPECT_DOUBLE_EQ(m.a.ops, 2);  // linear + log1p per iteration
  EXPECT_DOUBLE_EQ(m.a.flops, 2e4);
  EXPECT_NEAR(m.a.time.p50, 50e3, 2e3);  // 40 + 10 us
  EXPECT_EQ(m.weights_a.state, WeightState::kActive);
  EXPECT_EQ(m.weights_b.state, WeightState::kErased);
  EXPECT_EQ(m.weights_a.params, 1);
  // The parent changed but is no headline of its own.
  EXPECT_EQ(module(d, "layers.0.attn").status, DiffStatus::kChanged);
  EXPECT_FALSE(module(d, "layers.0.attn").headline);
  EXPECT_EQ(module(d, "layers.0.attn.q_proj").status, DiffStatus::kUnchanged);
  // End to end: two layers' bias work is gone.
  EXPECT_DOUBLE_EQ(d.a.flops - d.b.flops, 2 * 2e4);
  EXPECT_DOUBLE_EQ(d.a.ops - d.b.ops, 4);
  EXPECT_EQ(d.modules_by_verdict[static_cast<int>(Verdict::kVanished)], 2);
  // Ops matched by signature: the bias ops vanished, the rest did not change.
  int vanished = 0;
  for (const auto& o : d.ops) {
    if (o.status == DiffStatus::kVanished) {
      ++vanished;
      EXPECT_NE(o.module_path.find("position_adaptive_bias"), std::string::npos);
    } else {
      EXPECT_EQ(o.status, DiffStatus::kUnchanged) << o.module_path << " " << o.name;
    }
  }
  EXPECT_EQ(vanished, 4);
}

TEST(Diff, ZeroedWeightsWithComputeAreDormant) {
  RunDiff d = diff_runs(make_run(Variant::kV1), make_run(Variant::kV2z));
  const ModuleDiff& m = module(d, kBias);
  EXPECT_EQ(m.status, DiffStatus::kUnchanged);
  EXPECT_EQ(m.weights_b.state, WeightState::kZeroed);
  EXPECT_EQ(m.verdict, Verdict::kDormant);
  EXPECT_TRUE(m.headline);
  EXPECT_TRUE(m.weights_changed);
  EXPECT_DOUBLE_EQ(m.b.flops, 2e4);
}

TEST(Diff, AtolTurnsTinyWeightsIntoZeroes) {
  DiffOptions o;
  o.atol = 1e-6;
  RunDiff d = diff_runs(make_run(Variant::kV1), make_run(Variant::kV1), o);
  EXPECT_EQ(module(d, kBias).verdict, Verdict::kDormant);
}

TEST(Diff, NewModuleIsNew) {
  RunDiff d = diff_runs(make_run(Variant::kV2), make_run(Variant::kV1));
  const ModuleDiff& m = module(d, kBias);
  EXPECT_EQ(m.status, DiffStatus::kNew);
  EXPECT_EQ(m.verdict, Verdict::kNew);
  EXPECT_TRUE(m.headline);
  EXPECT_EQ(m.weights_b.state, WeightState::kActive);
}

TEST(Diff, SignificantSlowdownIsCalledAndNoiseIsNot) {
  FixtureOptions three;
  three.iterations = 12;
  three.processes = 3;
  FixtureOptions slow = three;
  slow.time_scale = 1.3;
  RunDiff d = diff_runs(make_run(Variant::kV1, three), make_run(Variant::kV1, slow));
  EXPECT_EQ(d.time_status, TimeStatus::kSlower);
  EXPECT_EQ(d.a.processes, 3);
  EXPECT_TRUE(d.time_significant);
  EXPECT_GT(d.time_diff.ci_low, 0);
  // Time is a status of its own: structure and verdict stay UNCHANGED.
  EXPECT_EQ(module(d, "layers.0.mlp").status, DiffStatus::kUnchanged);
  EXPECT_EQ(module(d, "layers.0.mlp").verdict, Verdict::kUnchanged);
  EXPECT_EQ(module(d, "layers.0.mlp").time_status, TimeStatus::kSlower);
  EXPECT_TRUE(module(d, "layers.0.mlp").time_significant);
  EXPECT_GT(d.modules_slower, 0);
  FixtureOptions same = three;
  same.time_scale = 1.04;  // below the 5% minimum effect
  RunDiff n = diff_runs(make_run(Variant::kV1, three), make_run(Variant::kV1, same));
  EXPECT_FALSE(n.time_significant);
  EXPECT_EQ(module(n, "layers.0.mlp").time_status, TimeStatus::kUnchanged);
  EXPECT_EQ(n.modules_slower, 0);
}

// Time between runs: iterations of one process are not samples of another's. With one process a side,
// even a consistent 30% slowdown is not assessable: no status says slower, the gate cannot pass or fail.
TEST(Diff, OneProcessEachIsNotAssessable) {
  FixtureOptions slow;
  slow.time_scale = 1.3;
  for (int processes : {1, 2}) {
    FixtureOptions a_options;
    a_options.processes = processes;
    slow.processes = processes;
    RunDiff d = diff_runs(make_run(Variant::kV1, a_options), make_run(Variant::kV1, slow));
    EXPECT_EQ(d.time_status, TimeStatus::kNotAssessable) << processes;
    EXPECT_FALSE(d.time_significant);
    EXPECT_FALSE(d.time_diff.assessable);
    EXPECT_TRUE(std::isnan(d.time_diff.ci_low));
    EXPECT_GT(d.time_diff.diff, 0);  // the point estimate is still there
    for (const auto& m : d.modules) {
      if (!m.a.present || !m.b.present) continue;
      EXPECT_EQ(m.time_status, TimeStatus::kNotAssessable) << m.path;
      EXPECT_EQ(m.verdict, Verdict::kUnchanged) << m.path;
      EXPECT_NE(m.time_text.find("not assessable across processes"), std::string::npos) << m.time_text;
    }
    for (const auto& o : d.ops) EXPECT_NE(o.time_status, TimeStatus::kSlower) << o.name;
    EXPECT_EQ(d.modules_slower, 0);
    EXPECT_EQ(d.modules_faster, 0);
    EXPECT_NE(d.sentence.text().find("not assessable across processes (use --rounds / trace --repeat)"),
              std::string::npos)
        << d.sentence.text();
    ASSERT_FALSE(d.warnings.empty());
    EXPECT_NE(d.warnings.back().find("--repeat"), std::string::npos) << d.warnings.back();
    GateOptions g;
    g.max_regression = RegressionLimits{0.05, std::nullopt, std::nullopt, std::nullopt, std::nullopt};
    auto gates = evaluate_gates(d, g);
    ASSERT_EQ(gates.size(), 1u);
    EXPECT_TRUE(gates[0].error) << gates[0].message;
    EXPECT_FALSE(gates[0].passed);
    EXPECT_NE(gates[0].message.find("--rounds"), std::string::npos) << gates[0].message;
    EXPECT_NE(gates[0].message.find("trace --repeat"), std::string::npos) << gates[0].message;
  }
}

// Processes of one program differ in level; iterations within each agree. Pooled, the iterations of two
// such runs look "significantly" different; over per-process medians they do not, while a consistent
// shift of every process is still called.
TEST(Diff, ProcessLevelsAreTheSamplesNotIterations) {
  FixtureOptions a_options;
  a_options.iterations = 12;
  a_options.processes = 3;
  a_options.process_levels = {0.9, 0.95, 1.0};
  FixtureOptions b_options = a_options;
  b_options.process_levels = {1.0, 1.05, 1.1};  // as far apart as processes of one program go
  RunData a = make_run(Variant::kV1, a_options), b = make_run(Variant::kV1, b_options);
  RunDiff d = diff_runs(a, b);
  EXPECT_NE(d.time_status, TimeStatus::kSlower);
  EXPECT_NE(d.time_status, TimeStatus::kFaster);
  EXPECT_TRUE(d.time_diff.assessable);
  EXPECT_FALSE(std::isnan(d.time_diff.ci_low));
  EXPECT_EQ(d.modules_slower + d.modules_faster, 0);
  // The same iterations treated as one process each (the old test) call it.
  const ProcessSplit split = process_split(a, b);
  ASSERT_EQ(split.a.count, 3);
  EXPECT_TRUE(shift_interval(d.a.time.values.dense(), d.b.time.values.dense()).significant);
  // Every process of B 40% slower: significant over three processes a side.
  FixtureOptions slow = a_options;
  slow.time_scale = 1.4;
  RunDiff s = diff_runs(a, make_run(Variant::kV1, slow));
  EXPECT_EQ(s.time_status, TimeStatus::kSlower);
  EXPECT_GT(s.time_diff.ci_low, 0);
  EXPECT_EQ(module(s, "layers.0.mlp").verdict, Verdict::kUnchanged);
}

TEST(TimeTests, StudentQuantilesAndWelch) {
  EXPECT_NEAR(student_t_quantile_two_sided(0.95, 2), 4.302653, 1e-5);
  EXPECT_NEAR(student_t_quantile_two_sided(0.95, 10), 2.228139, 1e-5);
  EXPECT_NEAR(student_t_quantile_two_sided(0.99, 5), 4.032143, 1e-5);
  EXPECT_NEAR(student_t_quantile_two_sided(0.95, 1e6), 1.959966, 1e-4);
  // Welch: means 2 and 5, variances 1 and 1, n = 3 each: se = sqrt(2/3), df = 4.
  const std::vector<double> a{1, 2, 3}, b{4, 5, 6};
  MedianDifference w = welch_interval(a, b, 0.95);
  EXPECT_DOUBLE_EQ(w.diff, 3);
  EXPECT_NEAR(w.ci_low, 3 - 2.776445 * std::sqrt(2.0 / 3), 1e-5);
  EXPECT_NEAR(w.ci_high, 3 + 2.776445 * std::sqrt(2.0 / 3), 1e-5);
  EXPECT_TRUE(w.significant);
  EXPECT_FALSE(welch_interval(a, std::vector<double>{1.5, 2.5, 3.5}, 0.95).significant);
  // Per-process medians, zeros of iterations where the quantity is absent included.
  RunProcesses p;
  p.of_iteration = {0, 0, 0, 1, 1, 1};
  p.count = 2;
  IterationSeries v = IterationSeries::from_dense(std::vector<double>{1, 9, 2, 0, 7, 8});
  EXPECT_EQ(process_medians(v, p), (std::vector<double>{2, 7}));
}

TEST(Diff, FewIterationsAreNotTested) {
  FixtureOptions one;
  one.iterations = 1;
  FixtureOptions slow = one;
  slow.time_scale = 2;
  RunDiff d = diff_runs(make_run(Variant::kV1, one), make_run(Variant::kV1, slow));
  EXPECT_FALSE(d.time_significant);
  ASSERT_FALSE(d.warnings.empty());
  EXPECT_NE(d.warnings[0].find("single iteration"), std::string::npos) << d.warnings[0];
  // One iteration: the difference is shown as measured, labelled, with no interval and no direction.
  EXPECT_EQ(d.time_status, TimeStatus::kSingleSample);
  EXPECT_GT(d.time_diff.diff, 0);
  EXPECT_TRUE(std::isnan(d.time_diff.ci_low));
  const ModuleDiff& mlp = module(d, "layers.0.mlp");
  EXPECT_EQ(mlp.time_status, TimeStatus::kSingleSample);
  EXPECT_NE(mlp.time_text.find("(single sample, no interval)"), std::string::npos) << mlp.time_text;
  EXPECT_EQ(mlp.time_text.front(), '+');
  for (const auto& o : d.ops) {
    if (o.a.present && o.b.present) {
      EXPECT_EQ(o.time_status, TimeStatus::kSingleSample) << o.name;
    }
  }
  // Two iterations: still too few for a test, and no single sample either.
  FixtureOptions two;
  two.iterations = 2;
  FixtureOptions slow_two = two;
  slow_two.time_scale = 2;
  d = diff_runs(make_run(Variant::kV1, two), make_run(Variant::kV1, slow_two));
  EXPECT_EQ(d.time_status, TimeStatus::kUntested);
  EXPECT_NE(d.warnings[0].find("fewer than 3 iterations"), std::string::npos) << d.warnings[0];
}

TEST(Diff, RenamedTreeMatchesThroughTheDroppedLevelOrAMap) {
  FixtureOptions renamed;
  renamed.prefix = "model.";
  RunData a = make_run(Variant::kV1, renamed), b = make_run(Variant::kV1);
  // A's single pass-through level `model` is gone from B: the matching pairs what is below it (MOVED, paths
  // differ), and the level itself is UNWRAPPED, never VANISHED.
  RunDiff plain = diff_runs(a, b);
  EXPECT_GT(plain.common_modules, 0);
  for (const auto& m : plain.modules) {
    if (m.path.empty()) continue;
    EXPECT_EQ(m.verdict, m.path == "model" ? Verdict::kUnwrapped : Verdict::kMoved) << m.path;
  }
  DiffOptions no_match;
  no_match.align_containers = false;
  RunDiff unmatched = diff_runs(a, b, no_match);
  EXPECT_EQ(unmatched.common_modules, 0);
  ASSERT_FALSE(unmatched.warnings.empty());
  EXPECT_NE(unmatched.warnings.back().find("no module in common"), std::string::npos);
  DiffOptions o;
  auto map = parse_path_map(R"(^model\.=)");
  ASSERT_TRUE(map.ok()) << map.status().message();
  o.maps.push_back(*map);
  RunDiff mapped = diff_runs(a, b, o);
  EXPECT_GT(mapped.common_modules, 0);
  for (const auto& m : mapped.modules) EXPECT_EQ(m.verdict, Verdict::kUnchanged) << m.path;
  for (const auto& p : mapped.params) EXPECT_FALSE(p.changed) << p.name;
}

TEST(Diff, MapWithCaptureGroups) {
  auto m = parse_path_map(R"(model\.layers\.(\d+)=layers.$1)");
  ASSERT_TRUE(m.ok());
  EXPECT_EQ(apply_path_maps({*m}, "model.layers.12.attn"), "layers.12.attn");
  EXPECT_FALSE(parse_path_map("no-equals-sign").ok());
  EXPECT_FALSE(parse_path_map("(unclosed=x").ok());
}

TEST(Gates, ExpectVanished) {
  GateOptions g;
  g.expect_vanished = {"*position_adaptive_bias*"};
  auto pass = evaluate_gates(diff_runs(make_run(Variant::kV1), make_run(Variant::kV2)), g);
  ASSERT_EQ(pass.size(), 1u);
  EXPECT_TRUE(pass[0].passed) << pass[0].message;
  auto still = evaluate_gates(diff_runs(make_run(Variant::kV1), make_run(Variant::kV1)), g);
  EXPECT_FALSE(still[0].passed);
  EXPECT_NE(still[0].message.find("still run in B"), std::string::npos);
  auto dormant = evaluate_gates(diff_runs(make_run(Variant::kV1), make_run(Variant::kV2z)), g);
  EXPECT_FALSE(dormant[0].passed);
  g.expect_vanished = {"*no_such_module*"};
  auto none = evaluate_gates(diff_runs(make_run(Variant::kV1), make_run(Variant::kV2)), g);
  EXPECT_FALSE(none[0].passed);
  EXPECT_NE(none[0].message.find("no module of A matches"), std::string::npos);
}

TEST(Gates, ForbidActive) {
  GateOptions g;
  g.forbid_active = {"*position_adaptive_bias*"};
  EXPECT_TRUE(evaluate_gates(diff_runs(make_run(Variant::kV1), make_run(Variant::kV2)), g)[0].passed);
  auto back = evaluate_gates(diff_runs(make_run(Variant::kV2), make_run(Variant::kV1)), g);
  EXPECT_FALSE(back[0].passed);
  // Zeroed weights are not active, but the ops still run: still forbidden.
  EXPECT_FALSE(evaluate_gates(diff_runs(make_run(Variant::kV1), make_run(Variant::kV2z)), g)[0].passed);
  // No module and no ops, but non-zero weights left in the checkpoint.
  FixtureOptions leftover;
  leftover.bias_params_without_module = true;
  auto weights = evaluate_gates(diff_runs(make_run(Variant::kV1), make_run(Variant::kV2, leftover)), g);
  EXPECT_FALSE(weights[0].passed);
  EXPECT_NE(weights[0].message.find("non-zero weights"), std::string::npos);
}

TEST(Gates, MaxRegression) {
  auto limits = parse_regression_limits("time=5%,flops=0.5%,bytes=1%");
  ASSERT_TRUE(limits.ok()) << limits.status().message();
  EXPECT_DOUBLE_EQ(*limits->time, 0.05);
  EXPECT_DOUBLE_EQ(*limits->flops, 0.005);
  EXPECT_DOUBLE_EQ(*limits->bytes, 0.01);
  EXPECT_FALSE(limits->ops.has_value());
  EXPECT_FALSE(parse_regression_limits("speed=5%").ok());
  EXPECT_FALSE(parse_regression_limits("time=abc").ok());
  EXPECT_FALSE(parse_regression_limits("time=-1%").ok());
  EXPECT_FALSE(parse_regression_limits("").ok());

  GateOptions g;
  g.max_regression = *limits;
  FixtureOptions three;
  three.iterations = 12;
  three.processes = 3;
  FixtureOptions heavier = three;
  heavier.flops_scale = 1.01;
  auto flops = evaluate_gates(diff_runs(make_run(Variant::kV1, three), make_run(Variant::kV1, heavier)), g);
  for (const auto& r : flops) {
    bool expect_pass = r.name != "max-regression flops";
    EXPECT_EQ(r.passed, expect_pass) << r.name << ": " << r.message;
  }
  FixtureOptions slow = three;
  slow.time_scale = 1.2;
  auto time = evaluate_gates(diff_runs(make_run(Variant::kV1, three), make_run(Variant::kV1, slow)), g);
  EXPECT_EQ(time[0].name, "max-regression time");
  EXPECT_FALSE(time[0].passed) << time[0].message;
  EXPECT_FALSE(time[0].error) << time[0].message;
  FixtureOptions faster = three;
  faster.time_scale = 0.8;
  auto fast = evaluate_gates(diff_runs(make_run(Variant::kV1, three), make_run(Variant::kV1, faster)), g);
  EXPECT_TRUE(fast[0].passed) << fast[0].message;
}

// Gate messages go to terminals, JUnit and the GUI: units people read ("292 ms", "1.2 MFLOPs"), never
// "2.924e+08 ns".
TEST(Gates, MessagesInHumanUnits) {
  const std::regex exponent("[0-9]e[+-][0-9]");
  GateOptions g;
  g.expect_vanished = {"*position_adaptive_bias*"};
  g.max_regression = RegressionLimits{0.05, 0.005, 0.01, 0.0, 0.0};
  FixtureOptions three;
  three.processes = 3;
  FixtureOptions slow = three;
  slow.time_scale = 1.2;
  slow.flops_scale = 1.01;
  RunDiff d = diff_runs(make_run(Variant::kV1, three), make_run(Variant::kV2, slow));
  auto results = evaluate_gates(d, g);
  ASSERT_EQ(results.size(), 6u);
  for (const auto& r : results) {
    EXPECT_FALSE(std::regex_search(r.message, exponent)) << r.name << ": " << r.message;
    EXPECT_EQ(r.message.find(" ns ->"), std::string::npos) << r.name << ": " << r.message;
  }
  EXPECT_NE(results[0].message.find(flops_text(module(d, kBias).a.flops +
                                               module(d, "layers.1.attn.position_adaptive_bias").a.flops)),
            std::string::npos)
      << results[0].message;
  EXPECT_EQ(results[1].name, "max-regression time");
  EXPECT_NE(
      results[1].message.find("host time P50: " + time_text(d.a.time.p50) + " -> " + time_text(d.b.time.p50)),
      std::string::npos)
      << results[1].message;
  EXPECT_NE(results[2].message.find(flops_text(d.a.flops) + " -> " + flops_text(d.b.flops)),
            std::string::npos)
      << results[2].message;
  EXPECT_NE(results[3].message.find(bytes_text(d.a.bytes) + " -> " + bytes_text(d.b.bytes)),
            std::string::npos)
      << results[3].message;
}

// The one sentence every view opens with: what vanished or went dormant and what it cost where it ran,
// labelled as such, then the measured end-to-end change: the cost in A is never offered as the saving.
TEST(SummarySentence, NamesTheChangeAndItsCost) {
  RunDiff v2 = diff_runs(make_run(Variant::kV1), make_run(Variant::kV2));
  const std::string s2 = v2.sentence.text();
  const auto& b0 = module(v2, kBias);
  const auto& b1 = module(v2, "layers.1.attn.position_adaptive_bias");
  EXPECT_EQ(
      s2.rfind("2 x position_adaptive_bias VANISHED (weights ERASED), cost in A of the removed modules: " +
                   flops_text(b0.a.flops + b1.a.flops) + ", " + bytes_text(b0.a.bytes + b1.a.bytes) + ", " +
                   time_text(b0.a.time.p50 + b1.a.time.p50) +
                   " per iteration (host time); measured end-to-end change: FLOPs -",
               0),
      0u)
      << s2;
  // Neither runs' outputs were stored: the sentence says nothing of them.
  EXPECT_EQ(s2.find("outputs"), std::string::npos) << s2;
  // The module name is the part front ends show as code.
  ASSERT_GE(v2.sentence.parts.size(), 2u);
  EXPECT_TRUE(v2.sentence.parts[1].module);
  EXPECT_EQ(v2.sentence.parts[1].text, "position_adaptive_bias");

  RunDiff v2z = diff_runs(make_run(Variant::kV1), make_run(Variant::kV2z));
  const std::string sz = v2z.sentence.text();
  EXPECT_EQ(
      sz.rfind("2 x position_adaptive_bias DORMANT (weights ZEROED), wasted in B by the dormant modules: ",
               0),
      0u)
      << sz;
  EXPECT_NE(sz.find("measured end-to-end change: FLOPs unchanged, bytes unchanged, host time "),
            std::string::npos)
      << sz;

  // The other way round the modules are NEW and cost what they add.
  RunDiff back = diff_runs(make_run(Variant::kV2), make_run(Variant::kV1));
  EXPECT_EQ(
      back.sentence.text().rfind("2 x position_adaptive_bias NEW (weights ACTIVE), cost in B of the added "
                                 "modules: " +
                                     flops_text(b0.a.flops + b1.a.flops) + ", ",
                                 0),
      0u)
      << back.sentence.text();

  RunData a = make_run(Variant::kV1);
  EXPECT_EQ(diff_runs(a, a).sentence.text().rfind(
                "No module vanished, appeared or went dormant; measured end-to-end "
                "change: FLOPs unchanged, bytes unchanged, host time ",
                0),
            0u);
  // A significant end-to-end change carries its interval (three processes a side).
  FixtureOptions three;
  three.iterations = 9;
  three.processes = 3;
  FixtureOptions slow = three;
  slow.time_scale = 1.5;
  const std::string ss =
      diff_runs(make_run(Variant::kV1, three), make_run(Variant::kV1, slow)).sentence.text();
  EXPECT_NE(ss.find(" [95% CI +"), std::string::npos) << ss;
  EXPECT_NE(ss.find("], significant (slower)"), std::string::npos) << ss;
  // One process a side: the point estimate, labelled, never "slower".
  slow.processes = 1;
  const std::string one = diff_runs(a, make_run(Variant::kV1, slow)).sentence.text();
  EXPECT_NE(one.find(", not assessable across processes (use --rounds / trace --repeat)"), std::string::npos)
      << one;
  EXPECT_EQ(one.find("slower"), std::string::npos) << one;
  EXPECT_EQ(one.find("-0 "), std::string::npos) << one;
}

// With outputs stored on both sides the sentence closes with how they compare, so a reader of the headline
// knows whether the removal changed what the model returns.
TEST(SummarySentence, ClosesWithTheOutputComparison) {
  RunData a = make_run(Variant::kV1), b = make_run(Variant::kV2);
  auto record = [](std::vector<double> values, std::string hash) {
    OutputTensor t;
    t.name = "0";
    t.dtype = "float32";
    t.shape = {2};
    t.values = std::move(values);
    t.sha256 = std::move(hash);
    fill_output_statistics(t);
    return OutputRecord{0, "in", "", {t}};
  };
  a.outputs = {record({1.0, 2.0}, "same")};
  b.outputs = {record({1.0, 2.0}, "same")};
  const std::string equal = diff_runs(a, b).sentence.text();
  EXPECT_TRUE(equal.ends_with("; outputs equal to the last bit")) << equal;
  b.outputs = {record({1.0, 3.0}, "other")};  // |3 - 2| over max |A| = 2
  const std::string changed = diff_runs(a, b).sentence.text();
  EXPECT_TRUE(changed.ends_with("; outputs CHANGED (relative change 5.0e-1)")) << changed;
}

TEST(Gates, GlobMatchesAcrossDots) {
  EXPECT_TRUE(glob_match("*position_adaptive_bias*", "layers.0.attn.position_adaptive_bias"));
  EXPECT_TRUE(glob_match("layers.?.attn", "layers.3.attn"));
  EXPECT_FALSE(glob_match("layers.?.attn", "layers.10.attn"));
}

}  // namespace
}  // namespace flopscope
