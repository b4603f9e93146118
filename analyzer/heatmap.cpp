#include "analyzer/heatmap.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <unordered_map>

#include "analyzer/format.h"
#include "db/model/text_escape.h"

namespace flopscope {

double HeatmapData::scale(double ns) const {
  if (ns <= 0 || max_ns <= 0) return 0;
  double lo = std::log(std::max(min_ns, 1.0));
  double hi = std::log(std::max(max_ns, 1.0));
  if (hi <= lo) return 1;
  return std::clamp((std::log(std::max(ns, 1.0)) - lo) / (hi - lo), 0.0, 1.0);
}

double HeatmapData::value(std::size_t row, std::size_t iteration) const {
  if (row >= rows.size()) return 0;
  return rows[row].stats.values.at(iteration);
}

namespace {

void add_row(HeatmapData& d, const std::string& path, const LatencyStats& stats) {
  d.rows.push_back({path, stats});
  d.iterations = std::max(d.iterations, static_cast<int>(stats.values.size()));
  for (const auto& [iteration, v] : stats.values.entries()) {
    if (v <= 0) continue;
    const bool first = d.max_ns <= 0;
    d.min_ns = first ? v : std::min(d.min_ns, v);
    d.max_ns = first ? v : std::max(d.max_ns, v);
  }
}

}  // namespace

HeatmapData heatmap_data(const RunSummary& summary, std::size_t top_n) {
  HeatmapData d;
  d.iterations = summary.iterations;
  d.clock = run_clock(summary);
  std::vector<const ModuleSummary*> candidates;
  for (std::size_t i = 1; i < summary.modules.size(); ++i)
    if (self_time(summary.modules[i], d.clock).p50 > 0) candidates.push_back(&summary.modules[i]);
  std::stable_sort(candidates.begin(), candidates.end(), [&](const ModuleSummary* x, const ModuleSummary* y) {
    return self_time(*x, d.clock).p50 > self_time(*y, d.clock).p50;
  });
  if (candidates.size() > top_n) candidates.resize(top_n);
  for (const ModuleSummary* m : candidates) add_row(d, m->path, self_time(*m, d.clock));
  return d;
}

HeatmapPair heatmap_pair(const RunSummary& a, const RunSummary& b, Clock clock, std::size_t top_n) {
  // Every module with self time in either run, ranked by the larger of its two P50s.
  std::vector<std::pair<double, std::string>> ranked;
  std::unordered_map<std::string, std::size_t> at;
  for (const RunSummary* s : {&a, &b}) {
    for (std::size_t i = 1; i < s->modules.size(); ++i) {
      const double p50 = self_time(s->modules[i], clock).p50;
      if (p50 <= 0) continue;
      auto [it, fresh] = at.try_emplace(s->modules[i].path, ranked.size());
      if (fresh)
        ranked.push_back({p50, s->modules[i].path});
      else
        ranked[it->second].first = std::max(ranked[it->second].first, p50);
    }
  }
  std::stable_sort(ranked.begin(), ranked.end(),
                   [](const auto& x, const auto& y) { return x.first > y.first; });
  if (ranked.size() > top_n) ranked.resize(top_n);
  HeatmapPair pair;
  const LatencyStats none;
  for (auto [data, summary] : {std::pair{&pair.a, &a}, std::pair{&pair.b, &b}}) {
    data->clock = clock;
    data->iterations = summary->iterations;
    for (const auto& [p50, path] : ranked) {
      const int i = summary->find(path);
      add_row(*data, path, i > 0 ? self_time(summary->modules[static_cast<std::size_t>(i)], clock) : none);
    }
  }
  // One colour scale for both.
  const bool a_empty = pair.a.max_ns <= 0, b_empty = pair.b.max_ns <= 0;
  const double lo = a_empty   ? pair.b.min_ns
                    : b_empty ? pair.a.min_ns
                              : std::min(pair.a.min_ns, pair.b.min_ns);
  const double hi = std::max(pair.a.max_ns, pair.b.max_ns);
  for (HeatmapData* d : {&pair.a, &pair.b}) {
    d->min_ns = lo;
    d->max_ns = hi;
  }
  return pair;
}

std::vector<double> heatmap_ticks(const HeatmapData& d, std::size_t max_ticks) {
  std::vector<double> out;
  if (d.max_ns <= 0) return out;
  const double lo = std::max(d.min_ns, 1.0), hi = std::max(d.max_ns, lo);
  auto inside = [&](std::initializer_list<double> mantissas) {
    std::vector<double> v;
    for (int k = static_cast<int>(std::floor(std::log10(lo)));
         k <= static_cast<int>(std::ceil(std::log10(hi))); ++k)
      for (double m : mantissas) {
        const double x = m * std::pow(10.0, k);
        if (x >= lo * (1 - 1e-9) && x <= hi * (1 + 1e-9)) v.push_back(x);
      }
    return v;
  };
  out = inside({1, 2, 5});
  if (out.size() > max_ticks) out = inside({1});
  // Too many decades: every k-th power of ten.
  if (out.size() > max_ticks) {
    std::vector<double> thinned;
    const std::size_t step = (out.size() + max_ticks - 1) / max_ticks;
    for (std::size_t i = 0; i < out.size(); i += step) thinned.push_back(out[i]);
    out.swap(thinned);
  }
  if (out.size() < 2) {  // a narrow range: its ends say more than one round number
    out = {lo};
    if (hi > lo) out.push_back(hi);
  }
  return out;
}

namespace {

// CSV lines of one matrix, `run` (if any) first on each line, `iterations` columns.
void csv_rows(std::string& out, const HeatmapData& d, const char* run, int iterations) {
  char number[32];
  for (std::size_t r = 0; r < d.rows.size(); ++r) {
    if (run) out += std::string(run) + ",";
    out += csv_field(d.rows[r].path) + "," + to_string(d.clock);
    for (int i = 0; i < iterations; ++i) {
      std::snprintf(number, sizeof number, ",%.17g", d.value(r, static_cast<std::size_t>(i)));
      out += number;
    }
    out += "\n";
  }
}

std::string csv_header(bool with_run, int iterations) {
  std::string out = with_run ? "run,module,clock" : "module,clock";
  for (int i = 0; i < iterations; ++i) out += ",iter_" + std::to_string(i);
  return out + "\n";
}

}  // namespace

std::string heatmap_csv(const HeatmapData& d) {
  std::string out = csv_header(false, d.iterations);
  csv_rows(out, d, nullptr, d.iterations);
  return out;
}

std::string heatmap_csv(const HeatmapPair& p) {
  const int iterations = std::max(p.a.iterations, p.b.iterations);
  std::string out = csv_header(true, iterations);
  csv_rows(out, p.a, "A", iterations);
  csv_rows(out, p.b, "B", iterations);
  return out;
}

LatencyHistogram latency_histogram(const LatencyStats& stats) {
  LatencyHistogram h;
  const std::vector<double> values = stats.values.dense();  // one module's iterations
  h.lo = stats.min;
  h.hi = stats.max > stats.min ? stats.max : stats.min + 1;
  if (values.empty()) return h;
  // About two values per bin, between 5 and 40 bins: enough to see a second mode without gaps.
  const int bins = std::clamp(static_cast<int>(values.size()) / 2, 5, 40);
  h.counts.assign(static_cast<std::size_t>(bins), 0);
  for (double v : values) {
    if (!std::isfinite(v)) continue;
    int b = std::clamp(static_cast<int>((v - h.lo) / (h.hi - h.lo) * bins), 0, bins - 1);
    h.counts[static_cast<std::size_t>(b)]++;
  }
  h.peak = *std::max_element(h.counts.begin(), h.counts.end());
  return h;
}

std::string heatmap_legend(const HeatmapData& d) {
  std::string text = "colour: " + std::string(to_string(d.clock)) + " self time per iteration";
  if (d.max_ns <= 0) return text + "; no cell has time";
  return text + ", logarithmic from " + time_text(d.min_ns) + " (dark purple, the smallest cell) to " +
         time_text(d.max_ns) + " (yellow, the largest); grey: the module did not run in that iteration";
}

std::string few_iterations_note(int iterations) {
  if (iterations >= kMinHistogramSamples) return "";
  return count_of(iterations, "iteration") + ": too few to colour a spread across iterations (" +
         std::to_string(kMinHistogramSamples) +
         " or more needed). Each colour is one module's time on the colour bar's scale (logarithmic, from "
         "the smallest to the largest cell): read the bar's values, not the hues.";
}

}  // namespace flopscope
