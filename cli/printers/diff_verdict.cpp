#include <fmt/format.h>

#include <cmath>

#include "analyzer/diff/between_runs.h"
#include "analyzer/diff/end_to_end_text.h"
#include "cli/printers/diff_format.h"
#include "cli/printers/diff_report.h"

namespace flopscope::cli {
std::string time_change_text(const MedianDifference& t, bool significant) {
  return describe_time_change(t, significant);
}

std::string verdict_text(const ModuleDiff& m) {
  return m.verdict_text;
}

std::string module_counts_text(const RunDiff& d) {
  return module_counts_line(d);
}

std::string sentence_terminal(const RunDiff& d) {
  return terminal_safe(d.sentence.text(), false);
}

std::string sentence_markdown(const RunDiff& d) {
  std::string out;
  for (const auto& p : d.sentence.parts)
    out += p.module ? markdown_code(p.text, false) : markdown_escape(p.text);
  return out;
}

std::string sentence_html(const RunDiff& d) {
  std::string out;
  for (const auto& p : d.sentence.parts)
    out += p.module ? "<code>" + html_escape(p.text) + "</code>" : html_escape(p.text);
  return out;
}

std::string maps_text(const RunDiff& d) {
  std::string out;
  for (std::size_t i = 0; i < d.maps.size(); ++i) out += (i ? "; " : "") + d.maps[i];
  return out;
}

std::string totals_text(const RunDiff& d) {
  return end_to_end_text(d);
}

std::vector<const ModuleDiff*> modules_to_show(const RunDiff& d, const DiffReportOptions& o) {
  std::vector<const ModuleDiff*> out;
  for (const auto& m : d.modules) {
    if (m.headline) out.push_back(&m);
  }
  for (const auto& m : d.modules) {
    if (m.headline) continue;
    if (o.all_modules || m.verdict != Verdict::kUnchanged || m.time_status == TimeStatus::kSlower ||
        m.time_status == TimeStatus::kFaster) {
      out.push_back(&m);
    }
  }
  return out;
}

}  // namespace flopscope::cli
