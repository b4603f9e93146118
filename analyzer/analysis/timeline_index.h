// The timeline of a run (RunAnalysis::timeline): ops and kernels as lanes of time spans (a module lane, one
// lane per host thread and call depth, one per device stream), sorted by start; orphan kernels (launched
// before the profiling window, analyzer/iterations) are marked and in no iteration. A level-of-detail query
// merges spans narrower than a pixel into one aggregate span, so a view draws at most a few thousand
// rectangles whatever the zoom, even for millions of events.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "db/model/run_data.h"

namespace flopscope {

struct TimelineEvent {
  std::int64_t start = 0;
  std::int64_t duration = 0;
  std::int32_t name = 0;  // index into TimelineIndex::names
  bool orphan =
      false;  // a kernel launched before the profiling window: in no iteration (analyzer/iterations)
  Id module_id = kNoId;
};

struct TimelineLane {
  std::string label;  // "thread 1 depth 0", "gpu 0 stream 7"
  bool is_device = false;
  std::vector<TimelineEvent> events;  // sorted by start
  std::int64_t max_duration = 0;
};

// What a view draws: one event (count == 1, name >= 0) or an aggregate of `count` events (name == -1).
struct TimelineSpan {
  std::int64_t start = 0;
  std::int64_t end = 0;
  std::int32_t name = -1;
  std::int64_t count = 0;
  std::size_t first = 0;  // index of the first event in the lane
};

class TimelineIndex {
 public:
  // Host ops up to max_depth (deeper calls would multiply lanes without telling more), and all kernels.
  static TimelineIndex build(const RunData& run, int max_depth = 2);

  const std::vector<TimelineLane>& lanes() const { return lanes_; }
  const std::vector<std::string>& names() const { return names_; }
  std::int64_t begin() const { return begin_; }
  // Time span of the first recorded iteration (what a view shows first; the core's iterations, so orphan
  // kernels are in none); the whole run when unknown.
  std::int64_t first_iteration_begin() const { return first_begin_; }
  std::int64_t first_iteration_end() const { return first_end_; }
  std::int64_t end() const { return end_; }
  std::size_t event_count() const;

  // Spans of `lane` overlapping [t0, t1), merging neighbours that fall within one pixel of ns_per_px.
  void query(std::size_t lane, std::int64_t t0, std::int64_t t1, double ns_per_px,
             std::vector<TimelineSpan>& out) const;
  // The event under time t in `lane`, or -1.
  std::int64_t event_at(std::size_t lane, std::int64_t t, std::int64_t slack_ns) const;

 private:
  void finish(const RunData& run);  // sorts the lanes, finds the run's and the first iteration's span

  std::vector<TimelineLane> lanes_;
  std::vector<std::string> names_;
  std::int64_t begin_ = 0;
  std::int64_t end_ = 0;
  std::int64_t first_begin_ = 0;
  std::int64_t first_end_ = 0;
};

}  // namespace flopscope
