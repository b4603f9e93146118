#include "cli/printers/fleet_history.h"

#include <fmt/format.h>

#include <algorithm>
#include <nlohmann/json.hpp>

#include "analyzer/latency.h"
#include "cli/printers/diff_format.h"
#include "db/model/text_escape.h"

namespace flopscope::cli {
namespace {

// Store text is foreign input: control characters never reach the terminal, formulas never a spreadsheet.
std::string printable(const std::string& s) {
  return terminal_safe(s, false);
}

std::string value_text(TrendMetric metric, std::optional<double> v) {
  if (!v) return "unknown";
  if (is_time_metric(metric)) return time_text(*v);
  if (metric == TrendMetric::kFlops) return flops_text(*v);
  return bytes_text(*v);
}

std::string change_text(std::optional<double> c) {
  return c ? format_signed_percent(*c) : "";
}

std::string module_name(const std::string& path) {
  return path.empty() ? "(model)" : path;
}

std::string metric_title(const Trend& t) {
  if (is_time_metric(t.metric)) {
    return fmt::format("{} of {} time per iteration", to_string(t.metric), to_string(t.clock));
  }
  return t.metric == TrendMetric::kFlops ? "FLOPs per iteration (analytic)"
                                         : "bytes per iteration (analytic)";
}

std::string csv_cell(const std::string& s) {
  return csv_field(s);
}

}  // namespace

std::string render_trend_table(const Trend& t, const std::string& glob) {
  std::string out = fmt::format("{} of modules matching '{}', {} stored runs (oldest first)\n",
                                metric_title(t), printable(glob), t.runs.size());
  if (t.series.empty()) return out + "no stored module matches\n";
  for (const auto& s : t.series) {
    TextTable table;
    table.header = {"run",     "pushed (UTC)", "branch", "commit", "model", to_string(t.metric),
                    "vs prev", "vs first",     "weights"};
    table.right_align = {true, false, false, false, false, true, true, true, false};
    for (std::size_t i = 0; i < t.runs.size(); ++i) {
      const auto& r = t.runs[i];
      const auto& p = s.points[i];
      table.rows.push_back({std::to_string(r.id), r.pushed_at, printable(r.git_branch),
                            printable(r.git_commit.substr(0, 10)), printable(r.model_sha256.substr(0, 10)),
                            !p.present             ? "absent"
                            : p.too_few_iterations ? "-"
                                                   : value_text(t.metric, p.value),
                            change_text(p.vs_previous), change_text(p.vs_first),
                            p.present ? printable(p.weight_state) : ""});
    }
    out += fmt::format("\n{} ({})\n", printable(module_name(s.module)), printable(s.type));
    out += table.to_text();
  }
  for (const auto& s : t.series) {
    if (std::any_of(s.points.begin(), s.points.end(),
                    [](const TrendPoint& p) { return p.too_few_iterations; })) {
      int pct = t.metric == TrendMetric::kP99 ? 99 : 90;
      out += fmt::format(
          "\n-: {} needs {} iterations (with fewer it is the largest value seen); those runs have fewer\n",
          to_string(t.metric), min_samples_for_percentile(pct));
      break;
    }
  }
  return out;
}

std::string render_trend_json(const Trend& t, const std::string& glob) {
  nlohmann::ordered_json j;
  j["metric"] = to_string(t.metric);
  j["clock"] =
      is_time_metric(t.metric) ? nlohmann::ordered_json(to_string(t.clock)) : nlohmann::ordered_json(nullptr);
  j["unit"] = is_time_metric(t.metric) ? "ns" : t.metric == TrendMetric::kFlops ? "flops" : "bytes";
  j["module_glob"] = glob;
  j["runs"] = nlohmann::ordered_json::array();
  for (const auto& r : t.runs) {
    j["runs"].push_back({{"id", r.id},
                         {"pushed_at", r.pushed_at},
                         {"git_branch", r.git_branch},
                         {"git_commit", r.git_commit},
                         {"model_sha256", r.model_sha256},
                         {"machine", r.machine},
                         {"tool_version", r.tool_version},
                         {"iterations", r.iterations}});
  }
  auto opt = [](std::optional<double> v) {
    return v ? nlohmann::ordered_json(*v) : nlohmann::ordered_json(nullptr);
  };
  j["modules"] = nlohmann::ordered_json::array();
  for (const auto& s : t.series) {
    nlohmann::ordered_json m;
    m["path"] = s.module;
    m["type"] = s.type;
    for (const auto& p : s.points) {
      m["points"].push_back({{"run", p.run_id},
                             {"present", p.present},
                             {"value", opt(p.value)},
                             {"too_few_iterations", p.too_few_iterations},
                             {"vs_previous", opt(p.vs_previous)},
                             {"vs_first", opt(p.vs_first)},
                             {"weight_state", p.weight_state}});
    }
    j["modules"].push_back(std::move(m));
  }
  return j.dump(2) + "\n";
}

std::string render_trend_csv(const Trend& t) {
  std::string out = "module,run,pushed_at,git_branch,git_commit,model_sha256,metric,clock,present,value\n";
  for (const auto& s : t.series) {
    for (std::size_t i = 0; i < t.runs.size(); ++i) {
      const auto& r = t.runs[i];
      const auto& p = s.points[i];
      out += fmt::format("{},{},{},{},{},{},{},{},{},{}\n", csv_cell(s.module), r.id, r.pushed_at,
                         csv_cell(r.git_branch), csv_cell(r.git_commit), csv_cell(r.model_sha256),
                         to_string(t.metric), is_time_metric(t.metric) ? to_string(t.clock) : "",
                         p.present ? 1 : 0, p.value ? fmt::format("{}", *p.value) : "");
    }
  }
  return out;
}

}  // namespace flopscope::cli
