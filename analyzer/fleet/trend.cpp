#include "analyzer/fleet/trend.h"

#include <unordered_map>

#include "analyzer/latency.h"

namespace flopscope {

StatusOr<TrendMetric> parse_trend_metric(const std::string& name) {
  if (name == "p50") return TrendMetric::kP50;
  if (name == "p90") return TrendMetric::kP90;
  if (name == "p99") return TrendMetric::kP99;
  if (name == "flops") return TrendMetric::kFlops;
  if (name == "bytes") return TrendMetric::kBytes;
  return InvalidArgument("--metric " + name + ": expected p50, p90, p99, flops or bytes");
}

const char* to_string(TrendMetric metric) {
  switch (metric) {
    case TrendMetric::kP50:
      return "p50";
    case TrendMetric::kP90:
      return "p90";
    case TrendMetric::kP99:
      return "p99";
    case TrendMetric::kFlops:
      return "flops";
    case TrendMetric::kBytes:
      return "bytes";
  }
  return "?";
}

const char* to_string(TrendClock clock) {
  return clock == TrendClock::kHost ? "host" : "device";
}

bool is_time_metric(TrendMetric metric) {
  return metric == TrendMetric::kP50 || metric == TrendMetric::kP90 || metric == TrendMetric::kP99;
}

namespace {

std::optional<double> metric_of(const FleetModuleRow& m, TrendMetric metric, TrendClock clock) {
  const FleetQuantiles& q = clock == TrendClock::kHost ? m.host : m.device;
  switch (metric) {
    case TrendMetric::kFlops:
      return m.flops;
    case TrendMetric::kBytes:
      return m.bytes;
    case TrendMetric::kP50:
      return q.known ? std::optional(q.p50) : std::nullopt;
    case TrendMetric::kP90:
      return q.known ? std::optional(q.p90) : std::nullopt;
    case TrendMetric::kP99:
      return q.known ? std::optional(q.p99) : std::nullopt;
  }
  return std::nullopt;
}

std::optional<int> trend_percentile(TrendMetric metric) {
  if (metric == TrendMetric::kP90) return 90;
  if (metric == TrendMetric::kP99) return 99;
  return std::nullopt;
}

std::optional<double> relative(std::optional<double> from, std::optional<double> to) {
  if (!from || !to || *from == 0) return std::nullopt;
  return (*to - *from) / *from;
}

}  // namespace

Trend build_trend(std::vector<StoredRunHeader> runs, const std::vector<ModulePoint>& points,
                  TrendMetric metric, TrendClock clock) {
  Trend t;
  t.metric = metric;
  t.clock = clock;
  t.runs = std::move(runs);
  std::unordered_map<std::int64_t, std::size_t> run_index;
  for (std::size_t i = 0; i < t.runs.size(); ++i) run_index.emplace(t.runs[i].id, i);
  std::unordered_map<std::string, std::size_t> series_index;
  for (const auto& p : points) {
    auto r = run_index.find(p.run_id);
    if (r == run_index.end()) continue;
    auto [it, added] = series_index.try_emplace(p.module.path, t.series.size());
    if (added) {
      TrendSeries s;
      s.module = p.module.path;
      s.type = p.module.type;
      for (const auto& run : t.runs) {
        TrendPoint empty;
        empty.run_id = run.id;
        s.points.push_back(empty);
      }
      t.series.push_back(std::move(s));
    }
    TrendPoint& point = t.series[it->second].points[r->second];
    point.present = true;
    point.value = metric_of(p.module, metric, clock);
    // The store keeps the raw quantiles; with too few iterations P90/P99 are the extremes, not percentiles.
    if (auto pct = trend_percentile(metric);
        pct && t.runs[r->second].iterations < min_samples_for_percentile(*pct)) {
      point.value.reset();
      point.too_few_iterations = true;
    }
    point.weight_state = p.module.weight_state;
  }
  for (auto& s : t.series) {
    std::optional<double> first, previous;
    for (auto& p : s.points) {
      if (!p.value) continue;
      p.vs_previous = relative(previous, p.value);
      p.vs_first = relative(first, p.value);
      if (!first) first = p.value;
      previous = p.value;
    }
  }
  return t;
}

}  // namespace flopscope
