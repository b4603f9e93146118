// History of stored runs: one metric of the modules a glob selects, run after run, with its change against
// the previous run and the first. A module absent from a run is absent (its ops vanished or it was
// renamed), and a time on a clock the run lacks is unknown: neither is 0.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "db/fleet/fleet_records.h"
#include "db/model/status.h"

namespace flopscope {

enum class TrendMetric { kP50, kP90, kP99, kFlops, kBytes };
enum class TrendClock { kHost, kDevice };
StatusOr<TrendMetric> parse_trend_metric(const std::string& name);
const char* to_string(TrendMetric metric);
const char* to_string(TrendClock clock);
bool is_time_metric(TrendMetric metric);

struct TrendPoint {
  std::int64_t run_id = 0;
  bool present = false;             // the run has this module
  std::optional<double> value;      // unknown when absent or when the run lacks the clock
  bool too_few_iterations = false;  // P90/P99 of a run with fewer iterations than the percentile needs
  std::optional<double> vs_previous, vs_first;  // relative change against the last and first known values
  std::string weight_state;
};

struct TrendSeries {
  std::string module;  // "" for the whole model
  std::string type;
  std::vector<TrendPoint> points;  // one per run, in run order
};

struct Trend {
  TrendMetric metric = TrendMetric::kP50;
  TrendClock clock = TrendClock::kHost;
  std::vector<StoredRunHeader> runs;
  std::vector<TrendSeries> series;  // modules in order of first appearance
};

Trend build_trend(std::vector<StoredRunHeader> runs, const std::vector<ModulePoint>& points,
                  TrendMetric metric, TrendClock clock);

}  // namespace flopscope
