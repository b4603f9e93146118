#include "gui/models/timeline_index.h"

#include <gtest/gtest.h>

#include "gui/models/run_loader.h"
#include "tests/unit/gui/fixture_runs.h"

namespace flopscope::gui::testing {
namespace {

TEST(TimelineIndex, LanesPerThreadDepthAndStream) {
  RunData run = sonnet_run({});
  TimelineIndex t = TimelineIndex::build(run);
  ASSERT_EQ(t.lanes().size(), 3u);  // modules, thread 1 depth 0, gpu 0 stream 7
  EXPECT_EQ(t.lanes()[0].label, "modules");
  EXPECT_EQ(t.lanes()[1].label, "thread 1 depth 0");
  EXPECT_TRUE(t.lanes()[2].is_device);
  EXPECT_EQ(t.lanes()[1].events.size() + t.lanes()[2].events.size(), run.ops.size() + run.kernels.size());
  // Consecutive ops of one module are one span on the module lane; each position_adaptive_bias run is one.
  int bias_spans = 0;
  for (const auto& e : t.lanes()[0].events)
    bias_spans +=
        t.names()[static_cast<std::size_t>(e.name)] == "layers.0.attn.position_adaptive_bias" ? 1 : 0;
  EXPECT_EQ(bias_spans, 12);  // once per iteration
  for (const auto& lane : t.lanes())
    for (std::size_t i = 1; i < lane.events.size(); ++i)
      EXPECT_LE(lane.events[i - 1].start, lane.events[i].start);
}

TEST(TimelineIndex, MergesSubPixelEventsButKeepsEveryEventCounted) {
  RunData run = large_run(200000, 10);
  TimelineIndex t = TimelineIndex::build(run);
  std::vector<TimelineSpan> spans;
  // Whole run on 1000 pixels: 200k events must collapse to at most a few per pixel.
  const double px = static_cast<double>(t.end() - t.begin()) / 1000;
  t.query(1, t.begin(), t.end(), px, spans);
  EXPECT_LE(spans.size(), 2000u);
  std::int64_t count = 0;
  for (const auto& s : spans) count += s.count;
  EXPECT_EQ(count, 200000);
  // Zoomed to 20 µs at 1 ns per pixel: events are wide, each is its own named span.
  t.query(1, t.begin(), t.begin() + 20000, 1.0, spans);
  ASSERT_FALSE(spans.empty());
  for (const auto& s : spans) {
    EXPECT_EQ(s.count, 1);
    EXPECT_GE(s.name, 0);
  }
}

TEST(TimelineIndex, FindsTheEventUnderTheCursor) {
  RunData run = sonnet_run({});
  TimelineIndex t = TimelineIndex::build(run);
  const auto& e = t.lanes()[1].events[10];
  EXPECT_EQ(t.event_at(1, e.start + e.duration / 2, 0), 10);
  EXPECT_EQ(t.event_at(1, t.end() + 1000000, 0), -1);
}

}  // namespace
}  // namespace flopscope::gui::testing

namespace flopscope::gui::testing {
namespace {

// Traces open like databases (through the importers' load_run) and show their streams.
TEST(TimelineIndex, OpensAKinetoTraceWithItsStreams) {
  auto session = load_session({QStringLiteral(FLOPSCOPE_SOURCE_DIR "/tests/fuzz/seeds/kineto/small.json")});
  if (!session.ok() && session.status().code() == StatusCode::kUnsupported)
    GTEST_SKIP() << session.status().message();
  ASSERT_TRUE(session.ok()) << session.status().message();
  const auto& lanes = (*session)->timeline().lanes();
  int streams = 0;
  for (const auto& lane : lanes) streams += lane.is_device ? 1 : 0;
  EXPECT_EQ(streams, 2);
  EXPECT_FALSE((*session)->a->data.kernels.empty());
}

// An orphan kernel (launched before the profiling window, iteration < 0) is in no iteration: the first
// iteration's span is the core's first iteration (analyzer/iterations), not stretched back to the orphan, and
// the event is marked as an orphan for the tooltip.
TEST(TimelineIndex, OrphanKernelsAreInNoIteration) {
  RunData run = sonnet_run({});
  const TimelineIndex before = TimelineIndex::build(run);
  ASSERT_FALSE(run.kernels.empty());
  KernelRecord orphan = run.kernels.front();
  orphan.id = 1 << 30;
  orphan.iteration = -1;
  orphan.op_id = kNoId;
  orphan.start_ns = before.begin() - 5'000'000;
  run.kernels.insert(run.kernels.begin(), orphan);
  const TimelineIndex t = TimelineIndex::build(run);
  EXPECT_EQ(t.first_iteration_begin(), before.first_iteration_begin());
  EXPECT_EQ(t.first_iteration_end(), before.first_iteration_end());
  EXPECT_EQ(t.begin(), orphan.start_ns);  // still drawn on the timeline
  int orphans = 0;
  for (const auto& lane : t.lanes())
    for (const auto& e : lane.events) orphans += e.orphan ? 1 : 0;
  EXPECT_EQ(orphans, 1);
}

}  // namespace
}  // namespace flopscope::gui::testing
