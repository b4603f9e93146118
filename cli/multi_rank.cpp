#include "cli/multi_rank.h"

#include <algorithm>
#include <cstdio>

#include "analyzer/analysis/diff_analysis.h"
#include "cli/command.h"
#include "cli/printers/diff_format.h"
#include "cli/run_input.h"
#include "db/model/text_escape.h"

namespace flopscope::cli {

int run_rank_diff(const std::vector<std::string>& args, const DiffOptions& options,
                  const GateOptions& gate_options, DiffReportOptions report, const std::string& format) {
  if (format != "table" && format != "json") {
    return report_error(InvalidArgument("a rank-matched diff is written as table or json, not " + format));
  }
  auto pairs = open_rank_pairs(args);  // matched in the core (analyzer/fleet/rank_parts)
  if (!pairs.ok()) return report_error(pairs.status());
  TextTable summary;
  summary.header = {"rank",         "A",        "B",       "time P50 A", "time P50 B", "change",
                    "FLOPs change", "vanished", "dormant", "new",        "changed",    "gates"};
  summary.right_align = {true, false, false, true, true, true, true, true, true, true, true, false};
  std::string json = "{\"ranks\": [";  // each rank's diff JSON as rendered, not parsed and dumped again
  std::string details;
  bool failed = false;
  const SummaryOptions summary_options = totals_summary_options();
  for (std::size_t i = 0; i < pairs->size(); ++i) {
    RankPart& a = (*pairs)[i].a;
    RankPart& b = (*pairs)[i].b;
    DiffAnalysis result =
        analyze_diff(RunAnalysis::of(std::move(a.run), a.path, summary_options),
                     RunAnalysis::of(std::move(b.run), b.path, summary_options), options, gate_options);
    if (const GateResult* e = result.first_error()) {
      return report_error(InvalidArgument(b.path + ": gate " + e->name + ": " + e->message));
    }
    const RunDiff& d = result.diff;
    const std::vector<GateResult>& gates = result.gates;
    const int failures = result.failed_gates();
    for (const auto& g : gates) {
      if (!g.passed) {
        std::fprintf(stderr, "flopscope: gate failed: rank %d: %s: %s\n", a.rank,
                     terminal_safe(g.name, false).c_str(), terminal_safe(g.message, false).c_str());
      }
    }
    failed = failed || failures > 0;
    double ta = d.a.time.p50, tb = d.b.time.p50;
    summary.rows.push_back({std::to_string(a.rank), a.path, b.path, time_text(ta), time_text(tb),
                            ta > 0 ? format_signed_percent(tb / ta - 1) : "-",
                            d.a.flops > 0 ? format_signed_percent(d.b.flops / d.a.flops - 1) : "-",
                            std::to_string(d.modules_by_verdict[static_cast<int>(Verdict::kVanished)]),
                            std::to_string(d.modules_by_verdict[static_cast<int>(Verdict::kDormant)]),
                            std::to_string(d.modules_by_verdict[static_cast<int>(Verdict::kNew)]),
                            std::to_string(d.modules_by_verdict[static_cast<int>(Verdict::kChanged)]),
                            gates.empty() ? "-"
                            : failures    ? std::to_string(failures) + " failed"
                                          : "passed"});
    if (format == "json") {
      std::string one = render_diff_json(d, gates, report);
      while (!one.empty() && one.back() == '\n') one.pop_back();
      json += (i > 0 ? ",\n" : "\n") + std::string("{\"rank\": ") + std::to_string(a.rank) +
              ", \"diff\": " + one + "}";
    } else {
      details += "\n== rank " + std::to_string(a.rank) + " ==\n" + render_diff_table(d, gates, report);
    }
  }
  std::string text = format == "json" ? json + "\n]}\n"
                                      : std::to_string(pairs->size()) + " ranks matched by rank\n" +
                                            summary.to_text() + details;
  if (Status st = emit_output("", text, false); !st.ok()) return report_error(st);
  return failed ? kExitGateFailed : kExitOk;
}

}  // namespace flopscope::cli
