// `report`'s per-iteration section (device activity, analyzer/iteration_activity) in table and Markdown:
// the core decides every number and the verdict; this only lays them out.
#include <fmt/format.h>

#include "cli/printers/report.h"
#include "cli/printers/units.h"
#include "db/model/text_escape.h"

namespace flopscope::cli {
namespace {

// Iterations listed one per row; more are summarised by the line under the table.
constexpr std::size_t kMaxIterationRows = 50;

constexpr const char* kClockNote =
    "device clock: span = first kernel start to last kernel end of the iteration, busy = union of its "
    "kernel, copy and memset intervals, idle = span - busy; launch delay = kernel start minus the end of "
    "its runtime launch call (host clock, one timeline)";

std::string delay_cell(const IterationActivity& a, double ns) {
  return a.launched > 0 ? time_text(ns) : "-";
}

}  // namespace

std::string iterations_found_text(const RunInfo& info) {
  return info.iterations_from.empty() ? "" : ", from " + terminal_safe(info.iterations_from, false);
}

std::string iteration_activity_text(const IterationActivityReport& r, bool markdown) {
  if (r.empty()) return "";
  std::string out;
  const std::size_t shown = std::min(r.iterations.size(), kMaxIterationRows);
  if (markdown) {
    out += fmt::format("### Per iteration (device)\n\n{}.\n\n", kClockNote);
    out +=
        "| iteration | span | busy | idle | idle % | kernels | launch delay P50 | launch delay max | bound "
        "|\n";
    out += "|---:|---:|---:|---:|---:|---:|---:|---:|---|\n";
  } else {
    out += fmt::format("per iteration ({})\n", kClockNote);
    out += fmt::format("{:>9} {:>10} {:>10} {:>10} {:>7} {:>8} {:>12} {:>12}  {}\n", "iteration", "span",
                       "busy", "idle", "idle%", "kernels", "delay P50", "delay max", "bound");
  }
  for (std::size_t i = 0; i < shown; ++i) {
    const IterationActivity& a = r.iterations[i];
    const auto cells = std::make_tuple(
        a.iteration, time_text(static_cast<double>(a.span_ns)), time_text(static_cast<double>(a.busy_ns)),
        time_text(static_cast<double>(a.idle_ns)), percent_text(a.idle_share()), a.activities,
        delay_cell(a, a.launch_delay_p50_ns), delay_cell(a, a.launch_delay_max_ns), to_string(a.bound));
    out += std::apply(
        [&](const auto&... c) {
          return markdown ? fmt::format("| {} | {} | {} | {} | {} | {} | {} | {} | {} |\n", c...)
                          : fmt::format("{:>9} {:>10} {:>10} {:>10} {:>7} {:>8} {:>12} {:>12}  {}\n", c...);
        },
        cells);
  }
  if (shown < r.iterations.size()) {
    out +=
        fmt::format("{}({} more iterations not listed)\n", markdown ? "\n" : "", r.iterations.size() - shown);
  }
  out += fmt::format("{}{}{}\n\n", markdown ? "\n" : "", markdown ? "" : "summary    ",
                     iteration_activity_summary(r));
  return out;
}

}  // namespace flopscope::cli
