// Iterations of imported traces (analyzer/importers/trace_iterations.cpp) and their per-iteration device
// activity (analyzer/iteration_activity.h): the hand-made five-pass traces of
// tests/data/kineto/make_multipass_trace.py, whose numbers are worked out in that script, a small inline
// trace of CUDA-graph replays, and real traces with profiler steps and repeated annotations.
#include "analyzer/iterations.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <set>

#include "analyzer/importers/importer.h"
#include "analyzer/iteration_activity.h"
#include "import_test_util.h"

namespace flopscope {
namespace {

constexpr const char* kModules = "kineto/synthetic__multipass_modules.json";
constexpr const char* kAnnotations = "kineto/synthetic__multipass_annotations.json";

StatusOr<RunData> import_marked(const std::string& path, const std::string& marker) {
  ImportOptions options;
  options.iteration_marker = marker;
  return testing::import_file(path, options);
}

// Every op and kernel of pass p is in iteration p.
void expect_one_iteration_per_pass(const RunData& run) {
  EXPECT_EQ(IterationIndex(run).count(), 5);
  for (const auto& op : run.ops) {
    // Passes start every 200 us from 1000 us; times are from the first event (pass 0's start).
    EXPECT_EQ(op.iteration, static_cast<int>(op.start_ns / 200'000)) << op.name << " at " << op.start_ns;
  }
  for (const auto& k : run.kernels) {
    EXPECT_EQ(k.iteration, static_cast<int>(k.start_ns / 200'000)) << k.name << " at " << k.start_ns;
  }
}

TEST(TraceIterations, RepeatedTopLevelModuleCalls) {
  auto run = testing::import_file(testing::fixture(kModules));
  ASSERT_TRUE(run.ok()) << run.status().message();
  EXPECT_EQ(run->info.iterations, 5);
  EXPECT_EQ(run->info.iterations_from, "repeated top-level module calls ('TinyNet_0')");
  expect_one_iteration_per_pass(*run);
}

TEST(TraceIterations, RepeatedAnnotationComesBeforeModuleCalls) {
  auto run = testing::import_file(testing::fixture(kAnnotations));
  ASSERT_TRUE(run.ok()) << run.status().message();
  EXPECT_EQ(run->info.iterations_from, "repeated annotation 'forward'");
  expect_one_iteration_per_pass(*run);
}

TEST(TraceIterations, MarkerOverridesAndMustMatch) {
  auto run = import_marked(testing::fixture(kAnnotations), "^aten::lin");
  ASSERT_TRUE(run.ok()) << run.status().message();
  EXPECT_EQ(run->info.iterations_from, "--iteration-marker '^aten::lin'");
  expect_one_iteration_per_pass(*run);

  auto none = import_marked(testing::fixture(kModules), "no such range");
  ASSERT_FALSE(none.ok());
  EXPECT_NE(none.status().message().find("matches no op, annotation or module range"), std::string::npos)
      << none.status().message();
  auto bad = import_marked(testing::fixture(kModules), "([");
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("is not a regular expression"), std::string::npos);
  EXPECT_EQ(bad.status().message().rfind(testing::fixture(kModules), 0), 0U) << "names the file";
}

TEST(IterationActivity, BusyAndIdleAddUpToTheSpan) {
  auto run = testing::import_file(testing::fixture(kModules));
  ASSERT_TRUE(run.ok()) << run.status().message();
  const IterationActivityReport r = iteration_activity(run->kernels);
  ASSERT_EQ(r.iterations.size(), 5U);
  for (const IterationActivity& a : r.iterations) {
    EXPECT_EQ(a.busy_ns + a.idle_ns, a.span_ns) << "iteration " << a.iteration;
    EXPECT_EQ(a.activities, 2U);
    EXPECT_EQ(a.launched, 2U);
    EXPECT_EQ(a.busy_ns, 50'000);        // GEMM 40 us + ReLU 10 us
    const bool late = a.iteration == 3;  // the ReLU kernel waits 65 us after its launch
    EXPECT_EQ(a.span_ns, late ? 120'000 : 60'000);
    EXPECT_EQ(a.idle_ns, late ? 70'000 : 10'000);
    EXPECT_DOUBLE_EQ(a.launch_delay_max_ns, late ? 65'000 : 5'000);
    EXPECT_DOUBLE_EQ(a.launch_delay_p50_ns, late ? 35'000 : 5'000);  // median of 5 and 65 us
    EXPECT_EQ(a.bound, late ? IterationBound::kHost : IterationBound::kDevice);
  }
  EXPECT_EQ(r.host_bound, 1U);
  EXPECT_EQ(r.worst_idle_iteration, 3);
  EXPECT_NEAR(r.idle_share_max, 70.0 / 120.0, 1e-12);
  EXPECT_NEAR(r.idle_share_p50, 10.0 / 60.0, 1e-12);
  EXPECT_DOUBLE_EQ(r.launch_delay_max_ns, 65'000);
  EXPECT_EQ(
      iteration_activity_summary(r),
      "device idle P50 16.7% of the iteration span, worst 58.3% (iteration 3); launch delay P50 5 µs, "
      "worst 65 µs; 4 device-bound, 1 host-bound, 0 blocked (host-bound: device idle > 50.0% of the span and "
      "launch delay P50 <= 100 µs; blocked: as idle, with longer launch delays)");
}

// Three replays of graph 7 (each a cudaGraphLaunch whose kernels carry graph id 7), no steps, no modules.
TEST(TraceIterations, CudaGraphReplays) {
  std::string events;
  for (int p = 0; p < 3; ++p) {
    const int t = 100 + 50 * p, corr = 900 + p;
    events += (p > 0 ? "," : "") +
              std::string("{\"ph\":\"X\",\"cat\":\"cuda_runtime\",\"name\":\"cudaGraphLaunch\",") +
              "\"pid\":1,\"tid\":1,\"ts\":" + std::to_string(t) +
              ",\"dur\":4,\"args\":{\"correlation\":" + std::to_string(corr) + "}},";
    for (int k = 0; k < 2; ++k) {
      events += "{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"k" + std::to_string(k) +
                "\",\"pid\":0,\"tid\":7,\"ts\":" + std::to_string(t + 10 + 10 * k) +
                ",\"dur\":5,\"args\":{\"correlation\":" + std::to_string(corr) +
                ",\"device\":0,\"stream\":7,\"graph id\":7,\"graph node id\":" + std::to_string(k + 1) +
                "}}" + (k == 0 ? "," : "");
    }
  }
  const std::string dir = testing::temp_dir();
  const std::string path = dir + "/graphs.json";
  testing::write_text(path, "{\"traceEvents\":[" + events + "]}");
  auto run = testing::import_file(path);
  ASSERT_TRUE(run.ok()) << run.status().message();
  EXPECT_EQ(run->info.iterations_from, "CUDA-graph replays of graph 7");
  EXPECT_EQ(IterationIndex(*run).count(), 3);
  std::set<int> seen;
  for (const auto& k : run->kernels) seen.insert(k.iteration);
  EXPECT_EQ(seen, (std::set<int>{0, 1, 2}));
}

// Real traces: profiler steps keep their rule (BERT has one step, HTA's sampled training rank two); HTA's
// AlexNet benchmark has no steps, and the range that repeats most ('[param|clear_cache]') follows each pass:
// iterations started there would leave the first pass out, so the guess is refused and every op is kept.
TEST(TraceIterations, RealTraces) {
  auto bert = testing::import_file(
      testing::fixture("kineto/tracelens__h100__gaunernst_bert-small-uncased__1016001.json.gz"));
  ASSERT_TRUE(bert.ok()) << bert.status().message();
  EXPECT_EQ(bert->info.iterations_from, "ProfilerStep#");
  EXPECT_EQ(bert->info.iterations, 1);

  auto rank = testing::import_file(testing::fixture("kineto/hta__trace_filter__sampled_rank-0.json.gz"));
  ASSERT_TRUE(rank.ok()) << rank.status().message();
  EXPECT_EQ(rank->info.iterations_from, "ProfilerStep#");
  EXPECT_EQ(rank->info.iterations, 2);
  const IterationActivityReport r = iteration_activity(rank->kernels);
  EXPECT_EQ(r.iterations.size(), 2U);
  for (const IterationActivity& a : r.iterations) {
    EXPECT_EQ(a.busy_ns + a.idle_ns, a.span_ns);
    // Over half idle, yet kernels waited milliseconds after their launch: blocked, not host-bound.
    EXPECT_GT(a.idle_share(), 0.5);
    EXPECT_GT(a.launch_delay_p50_ns, 1e6);
    EXPECT_EQ(a.bound, IterationBound::kBlocked);
  }

  auto alexnet = testing::import_file(
      testing::fixture("kineto/hta__alexnet_a100__benchmark_result_2869224_1695835535_trace.json.gz"));
  ASSERT_TRUE(alexnet.ok()) << alexnet.status().message();
  EXPECT_EQ(alexnet->info.iterations_from, "");
  EXPECT_EQ(alexnet->info.iterations, 1);
  EXPECT_TRUE(std::none_of(alexnet->quality.begin(), alexnet->quality.end(), [](const QualityIssue& q) {
    return q.code == QualityCode::host_ops_outside_steps;
  }));
}

}  // namespace
}  // namespace flopscope
