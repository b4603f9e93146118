#include "cli/multi_rank.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "cli/command.h"
#include "cli/printers/diff_format.h"
#include "cli/run_input.h"

namespace flopscope::cli {
namespace {

struct RankSets {
  std::vector<RankPart> a, b;
};

StatusOr<RankSets> open_rank_sets(const std::vector<std::string>& args) {
  std::vector<std::vector<std::string>> groups;
  std::error_code ec;
  if (args.size() == 2 && std::filesystem::is_directory(args[0], ec) && std::filesystem::is_directory(args[1], ec)) {
    groups = {{args[0]}, {args[1]}};
  } else {
    std::vector<std::string> names;
    for (const auto& f : args) {
      std::string name = rank_set_name(f);
      auto it = std::find(names.begin(), names.end(), name);
      if (it == names.end()) {
        names.push_back(name);
        groups.push_back({f});
      } else {
        groups[static_cast<std::size_t>(it - names.begin())].push_back(f);
      }
    }
    if (groups.size() != 2) {
      return InvalidArgument("a rank-matched diff needs two sets of ranks (A.rank*.db B.rank*.db), got " +
                             std::to_string(groups.size()) + " names once the rank is taken out");
    }
  }
  RankSets sets;
  FS_ASSIGN_OR_RETURN(sets.a, open_rank_parts(groups[0]));
  FS_ASSIGN_OR_RETURN(sets.b, open_rank_parts(groups[1]));
  for (auto* side : {&sets.a, &sets.b}) {
    std::sort(side->begin(), side->end(), [](const auto& x, const auto& y) { return x.rank < y.rank; });
    for (std::size_t i = 1; i < side->size(); ++i) {
      if ((*side)[i].rank == (*side)[i - 1].rank) {
        return InvalidArgument((*side)[i].path + ": rank " + std::to_string((*side)[i].rank) + " given twice");
      }
    }
  }
  if (sets.a.size() != sets.b.size()) {
    return InvalidArgument("A has " + std::to_string(sets.a.size()) + " ranks and B " +
                           std::to_string(sets.b.size()) + ": ranks must match one to one");
  }
  for (std::size_t i = 0; i < sets.a.size(); ++i) {
    if (sets.a[i].rank != sets.b[i].rank) {
      return InvalidArgument(sets.a[i].path + ": rank " + std::to_string(sets.a[i].rank) + " has no match in B (B has " +
                             sets.b[i].path + ", rank " + std::to_string(sets.b[i].rank) + ")");
    }
  }
  return sets;
}

}  // namespace

bool is_rank_set_diff(const std::vector<std::string>& args) {
  std::error_code ec;
  if (args.size() > 2) return true;
  return args.size() == 2 && std::filesystem::is_directory(args[0], ec) && std::filesystem::is_directory(args[1], ec);
}

int run_rank_diff(const std::vector<std::string>& args, const DiffOptions& options, const GateOptions& gate_options,
                  DiffReportOptions report, const std::string& format) {
  if (format != "table" && format != "json") {
    return report_error(InvalidArgument("a rank-matched diff is written as table or json, not " + format));
  }
  auto sets = open_rank_sets(args);
  if (!sets.ok()) return report_error(sets.status());
  TextTable summary;
  summary.header = {"rank", "A", "B", "time P50 A", "time P50 B", "change", "FLOPs change", "vanished", "dormant", "new",
                    "changed", "gates"};
  summary.right_align = {true, false, false, true, true, true, true, true, true, true, true, false};
  nlohmann::ordered_json json = nlohmann::ordered_json::array();
  std::string details;
  bool failed = false;
  for (std::size_t i = 0; i < sets->a.size(); ++i) {
    const RankPart& a = sets->a[i];
    const RankPart& b = sets->b[i];
    RunDiff d = diff_runs(a.run, b.run, options);
    if (d.info_a.source_path.empty()) d.info_a.source_path = a.path;
    if (d.info_b.source_path.empty()) d.info_b.source_path = b.path;
    std::vector<GateResult> gates = evaluate_gates(d, gate_options);
    int failures = 0;
    for (const auto& g : gates) {
      if (g.passed) continue;
      ++failures;
      std::fprintf(stderr, "flopscope: gate failed: rank %d: %s: %s\n", a.rank, g.name.c_str(), g.message.c_str());
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
                            gates.empty() ? "-" : failures ? std::to_string(failures) + " failed" : "passed"});
    if (format == "json") {
      json.push_back({{"rank", a.rank}, {"diff", nlohmann::ordered_json::parse(render_diff_json(d, gates, report))}});
    } else {
      details += "\n== rank " + std::to_string(a.rank) + " ==\n" + render_diff_table(d, gates, report);
    }
  }
  std::string text = format == "json" ? nlohmann::ordered_json{{"ranks", json}}.dump(2) + "\n"
                                      : std::to_string(sets->a.size()) + " ranks matched by rank\n" +
                                            summary.to_text() + details;
  if (Status st = emit_output("", text, false); !st.ok()) return report_error(st);
  return failed ? kExitGateFailed : kExitOk;
}

}  // namespace flopscope::cli
