// Terminal table and Markdown forms of the diff report.
#include <fmt/format.h>

#include "cli/printers/diff_tables.h"

namespace flopscope::cli {
namespace {

std::vector<const ModuleDiff*> headlines(const RunDiff& d) {
  std::vector<const ModuleDiff*> out;
  for (const auto& m : d.modules) {
    if (m.headline) out.push_back(&m);
  }
  return out;
}

}  // namespace

std::string render_diff_table(const RunDiff& d, const std::vector<GateResult>& gates,
                              const DiffReportOptions& o) {
  // The saving first: the summary sentence is the report's first line.
  std::string out = sentence_terminal(d) + "\n\n";
  out +=
      fmt::format("{}: {}\n{}: {}\n", o.label_a, run_line(d.info_a, d.a), o.label_b, run_line(d.info_b, d.b));
  out += "End to end: " + totals_text(d) + "\n";
  if (!d.maps.empty()) out += "Path maps: " + terminal_safe(maps_text(d), false) + "\n";
  out += "\n";
  auto heads = headlines(d);
  if (heads.empty()) {
    out += "No module vanished, appeared, moved or went dormant.\n";
  } else {
    out += "Verdicts:\n";
    for (const ModuleDiff* m : heads) {
      out += "  " + terminal_safe(m->path, false) + "  " + terminal_safe(verdict_text(*m), false) + "\n";
    }
  }
  for (const auto& m : d.modules) {
    if (m.verdict == Verdict::kChanged && !m.path.empty() && m.weights_a.state != m.weights_b.state) {
      out += "  " + terminal_safe(m.path, false) + "  " + terminal_safe(verdict_text(m), false) + "\n";
    }
  }
  if (const std::string line = output_line(d.outputs); !line.empty())
    out += terminal_safe(line, false) + "\n";
  out += fmt::format("\nModules: {}\n", module_counts_text(d));
  TextTable mt = module_table(d, o);
  if (!mt.rows.empty()) out += mt.to_text();
  std::size_t more = 0;
  TextTable ot = op_table(d, o, &more);
  out += fmt::format("\nOp signatures: {}; {}\n", status_counts(d.ops_by_status), op_ranking_text(d));
  if (!ot.rows.empty()) out += ot.to_text();
  if (more > 0) out += fmt::format("({} more op signatures; --top N or --format json lists them)\n", more);
  if (const std::string orphans = orphan_kernels_text(d); !orphans.empty()) out += orphans + "\n";
  out += "\n" + category_heading(d) + "\n" + category_table(d).to_text();
  if (!gates.empty()) out += "\nGates:\n" + gate_table(gates).to_text();
  for (const auto& w : d.warnings) out += "warning: " + terminal_safe(w, false) + "\n";
  return out;
}

std::string render_diff_markdown(const RunDiff& d, const std::vector<GateResult>& gates,
                                 const DiffReportOptions& o) {
  // The first line is the summary sentence: what a PR comment's preview shows.
  std::string out = "**" + sentence_markdown(d) + "**\n\n## flopscope diff\n\n";
  out += fmt::format("- **{}**: {}\n- **{}**: {}\n- **End to end**: {}\n\n", markdown_escape(o.label_a),
                     markdown_escape(run_line(d.info_a, d.a)), markdown_escape(o.label_b),
                     markdown_escape(run_line(d.info_b, d.b)), markdown_escape(totals_text(d)));
  if (!d.maps.empty()) out += "- **Path maps**: " + markdown_escape(maps_text(d)) + "\n\n";
  if (!gates.empty()) {
    bool all = true;
    for (const auto& g : gates) all = all && g.passed;
    out += all ? "### Gates: all passed\n\n" : "### Gates: FAILED\n\n";
    out += gate_table(gates).to_markdown() + "\n";
  }
  auto heads = headlines(d);
  out += "### Verdicts\n\n";
  if (heads.empty()) out += "No module vanished, appeared, moved or went dormant.\n";
  for (const ModuleDiff* m : heads)
    out += "- " + markdown_code(m->path, false) + ": " + markdown_escape(verdict_text(*m)) + "\n";
  if (const std::string line = output_line(d.outputs); !line.empty())
    out += "\n" + markdown_escape(line) + "\n";
  out += fmt::format("\n### Modules ({})\n\n", module_counts_text(d));
  TextTable mt = module_table(d, o);
  if (!mt.rows.empty()) {
    out += "<details><summary>" + std::to_string(mt.rows.size()) + " modules</summary>\n\n" +
           mt.to_markdown() + "\n</details>\n";
  }
  std::size_t more = 0;
  TextTable ot = op_table(d, o, &more);
  out += fmt::format("\n### Op signatures ({})\n\n", status_counts(d.ops_by_status));
  if (!ot.rows.empty()) {
    out += "<details><summary>op signatures " + markdown_escape(op_ranking_text(d)) + "</summary>\n\n" +
           ot.to_markdown();
    if (more > 0) out += fmt::format("\n{} more not shown.\n", more);
    out += "\n</details>\n";
  }
  if (const std::string orphans = orphan_kernels_text(d); !orphans.empty())
    out += "\n" + markdown_escape(orphans) + "\n";
  out += "\n### Op categories\n\n" + markdown_escape(category_heading(d)) + "\n\n" +
         category_table(d).to_markdown();
  if (!d.warnings.empty()) {
    out += "\n### Warnings\n\n";
    for (const auto& w : d.warnings) out += "- " + markdown_escape(w) + "\n";
  }
  return out;
}

}  // namespace flopscope::cli
