// The fleet pieces that need no server: store URLs, Prometheus label escaping and exposition, trends,
// and the content key of a stored run.
#include <gtest/gtest.h>

#include "analyzer/fleet/exposition.h"
#include "analyzer/fleet/exposition_sources.h"
#include "analyzer/fleet/fleet_run.h"
#include "analyzer/fleet/trend.h"
#include "diff_fixtures.h"

namespace flopscope {
namespace {

TEST(PrometheusLabels, EscapesBackslashQuoteAndNewlineAndShowsOtherControls) {
  EXPECT_EQ(prometheus_label_escape(R"(a\b"c)"
                                    "\n"
                                    "d.e"),
            R"(a\\b\"c\nd.e)");
  EXPECT_EQ(prometheus_label_escape("layers.0.attn"), "layers.0.attn");
  EXPECT_EQ(prometheus_label_escape("a\rb"), "a\\\\x0db");  // no raw CR: prometheus_client splits there
}

TEST(PrometheusExposition, ADownSourceHasSourceUpZeroAndNoOtherSeries) {
  ExpositionSource good;
  good.kind = "run";
  good.source = "good.db";
  good.has_costs = true;
  FleetModuleRow m;
  m.path = "enc";
  m.flops = 5;
  good.modules.push_back(m);
  std::string text = render_exposition({good, exposition_source_down("run", "bad.db")});
  EXPECT_NE(text.find("flopscope_source_up{source=\"good.db\",kind=\"run\"} 1\n"), std::string::npos) << text;
  EXPECT_NE(text.find("flopscope_source_up{source=\"bad.db\",kind=\"run\"} 0\n"), std::string::npos) << text;
  EXPECT_NE(text.find("flopscope_module_flops_per_iteration{source=\"good.db\",module=\"enc\"} 5\n"),
            std::string::npos);
  EXPECT_EQ(text.find("source=\"bad.db\"", text.find("flopscope_source_info")), std::string::npos) << text;
  // Quantile series are summaries (promtool refuses a gauge with a quantile label).
  EXPECT_NE(text.find("# TYPE flopscope_iteration_time_seconds summary\n"), std::string::npos);
  EXPECT_NE(text.find("# TYPE flopscope_module_time_seconds summary\n"), std::string::npos);
}

TEST(PrometheusExposition, StatesAreOneHotAndUnknownClocksHaveNoSeries) {
  ExpositionSource s;
  s.kind = "run";
  s.source = "run.db";
  s.has_costs = true;
  s.iterations = 100;  // enough for P99
  FleetModuleRow m;
  m.path = "a\"b";
  m.weight_state = "ZEROED";
  m.flops = 2e6;
  m.host = {true, 1e6, 2e6, 3e6};  // device unknown
  s.modules.push_back(m);
  std::string text = render_exposition({s});
  EXPECT_NE(
      text.find("flopscope_module_weight_state{source=\"run.db\",module=\"a\\\"b\",state=\"ZEROED\"} 1\n"),
      std::string::npos)
      << text;
  EXPECT_NE(text.find("module=\"a\\\"b\",state=\"ACTIVE\"} 0\n"), std::string::npos);
  EXPECT_NE(text.find("clock=\"host\",quantile=\"0.99\"} 0.0030000000000000001\n"), std::string::npos)
      << text;
  EXPECT_EQ(text.find("clock=\"device\""), std::string::npos);
  EXPECT_NE(text.find("# TYPE flopscope_module_flops_per_iteration gauge\n"), std::string::npos);
}

TEST(PrometheusExposition, QuantilesWithoutEnoughIterationsAreNotExported) {
  ExpositionSource s;
  s.kind = "run";
  s.source = "run.db";
  s.has_costs = true;
  s.iterations = 12;  // P90 needs 10, P99 100
  s.host = {true, 1e6, 2e6, 3e6};
  std::string text = render_exposition({s});
  EXPECT_NE(text.find("clock=\"host\",quantile=\"0.5\"}"), std::string::npos) << text;
  EXPECT_NE(text.find("clock=\"host\",quantile=\"0.9\"}"), std::string::npos) << text;
  EXPECT_EQ(text.find("quantile=\"0.99\""), std::string::npos) << text;
}

StoredRunHeader header(std::int64_t id, int iterations = 100) {
  StoredRunHeader h;
  h.id = id;
  h.iterations = iterations;
  return h;
}

RunData run_with_output(const std::string& input_hash, std::vector<double> values) {
  RunData r;
  OutputRecord rec;
  rec.input_hash = input_hash;
  OutputTensor t;
  t.name = "0";
  t.dtype = "float32";
  t.shape = {1, static_cast<std::int64_t>(values.size())};
  t.values = std::move(values);
  fill_output_statistics(t);
  t.sha256 =
      std::to_string(t.values.back());  // the producer's hash of the raw bytes; distinct per content here
  rec.tensors.push_back(std::move(t));
  r.outputs.push_back(std::move(rec));
  return r;
}

TEST(PrometheusExposition, ADiffsOutputChangeIsASeries) {
  ExpositionSource d =
      exposition_from_diff(run_with_output("h", {1, 2, 4}), run_with_output("h", {1, 2, 4.5}), "a -> b");
  const std::string text = render_exposition({d});
  EXPECT_NE(text.find("flopscope_diff_outputs_compared{source=\"a -> b\"} 1"), std::string::npos) << text;
  EXPECT_NE(text.find("flopscope_diff_output_max_relative_change{source=\"a -> b\"} 0.125"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("flopscope_diff_output_top1_agreement{source=\"a -> b\"} 1"), std::string::npos)
      << text;
  // Other inputs: not compared, and no change figure that would read as "unchanged".
  ExpositionSource other =
      exposition_from_diff(run_with_output("h", {1}), run_with_output("g", {1}), "a -> c");
  const std::string none = render_exposition({other});
  EXPECT_NE(none.find("flopscope_diff_outputs_compared{source=\"a -> c\"} 0"), std::string::npos) << none;
  EXPECT_EQ(none.find("flopscope_diff_output_max_relative_change{"), std::string::npos) << none;
}

TEST(Trend, P99OfRunsWithFewIterationsIsNotAValue) {
  std::vector<ModulePoint> points;
  for (std::int64_t run : {1, 2, 3}) {
    ModulePoint p;
    p.run_id = run;
    p.module.path = "m";
    p.module.host = {true, 10.0 * run, 20.0 * run, 30.0 * run};
    points.push_back(p);
  }
  Trend t = build_trend({header(1, 100), header(2, 5), header(3, 200)}, points, TrendMetric::kP99,
                        TrendClock::kHost);
  const auto& p = t.series.at(0).points;
  EXPECT_DOUBLE_EQ(*p[0].value, 30);
  EXPECT_TRUE(p[1].present);
  EXPECT_TRUE(p[1].too_few_iterations);
  EXPECT_FALSE(p[1].value.has_value());
  EXPECT_DOUBLE_EQ(*p[2].vs_previous, 2.0);  // against run 1, the last known value
  Trend p50 = build_trend({header(1, 100), header(2, 5), header(3, 200)}, points, TrendMetric::kP50,
                          TrendClock::kHost);
  EXPECT_DOUBLE_EQ(*p50.series.at(0).points[1].value, 20);  // P50 needs one iteration
}

TEST(Trend, ChangesAgainstPreviousAndFirstSkipAbsentAndUnknown) {
  std::vector<ModulePoint> points;
  auto add = [&](std::int64_t run, double p50, bool known) {
    ModulePoint p;
    p.run_id = run;
    p.module.path = "layers.0.attn";
    p.module.host = {known, p50, p50, p50};
    points.push_back(p);
  };
  add(1, 100, true);
  add(2, 150, true);
  add(4, 0, false);  // run 3 lacks the module, run 4 lacks the clock
  add(5, 75, true);
  Trend t = build_trend({header(1), header(2), header(3), header(4), header(5)}, points, TrendMetric::kP50,
                        TrendClock::kHost);
  ASSERT_EQ(t.series.size(), 1u);
  const auto& p = t.series[0].points;
  EXPECT_FALSE(p[0].vs_previous.has_value());
  EXPECT_DOUBLE_EQ(*p[1].vs_previous, 0.5);
  EXPECT_FALSE(p[2].present);
  EXPECT_TRUE(p[3].present);
  EXPECT_FALSE(p[3].value.has_value());  // unknown, not 0
  EXPECT_DOUBLE_EQ(*p[4].vs_previous, -0.5);
  EXPECT_DOUBLE_EQ(*p[4].vs_first, -0.25);
  EXPECT_FALSE(parse_trend_metric("p75").ok());
}

TEST(FleetRun, ContentKeyFollowsTheContent) {
  RunData v1 = testing::make_run(testing::Variant::kV1);
  RunData v2z = testing::make_run(testing::Variant::kV2z);
  FleetRun a = build_fleet_run(v1, summarize(v1));
  FleetRun again = build_fleet_run(v1, summarize(v1));
  FleetRun z = build_fleet_run(v2z, summarize(v2z));
  EXPECT_EQ(a.content_key, again.content_key);
  EXPECT_NE(a.content_key, z.content_key);
  EXPECT_EQ(a.content_key.size(), 64u);
  EXPECT_FALSE(a.device.known);  // no kernels: device time unknown
  bool zeroed = false;
  for (const auto& m : z.modules) {
    if (m.path.find("position_adaptive_bias") != std::string::npos && m.weight_state == "ZEROED")
      zeroed = true;
  }
  EXPECT_TRUE(zeroed);
  EXPECT_FALSE(a.ops.empty());
}

}  // namespace
}  // namespace flopscope
