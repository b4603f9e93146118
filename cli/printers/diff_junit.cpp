// JUnit XML: one test case per gate, so CI systems show each gate as a named pass/fail.
#include <fmt/format.h>

#include "cli/printers/diff_format.h"
#include "cli/printers/diff_report.h"

namespace flopscope::cli {

std::string render_diff_junit(const RunDiff& d, const std::vector<GateResult>& gates) {
  int failures = 0;
  for (const auto& g : gates) failures += g.passed ? 0 : 1;
  std::string out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  out += fmt::format("<testsuites name=\"flopscope diff\" tests=\"{}\" failures=\"{}\">\n", gates.size(),
                     failures);
  out += fmt::format("  <testsuite name=\"{}\" tests=\"{}\" failures=\"{}\" errors=\"0\" skipped=\"0\">\n",
                     xml_escape("flopscope diff " + d.info_a.source_path + " -> " + d.info_b.source_path),
                     gates.size(), failures);
  out += "    <properties>\n";
  out += fmt::format("      <property name=\"summary\" value=\"{}\"/>\n", xml_escape(d.sentence.text()));
  out += fmt::format("      <property name=\"end_to_end\" value=\"{}\"/>\n", xml_escape(totals_text(d)));
  out += fmt::format("      <property name=\"modules\" value=\"{}\"/>\n", xml_escape(module_counts_text(d)));
  for (int v = 0; v < kVerdictCount; ++v) {
    out += fmt::format("      <property name=\"modules.{}\" value=\"{}\"/>\n",
                       to_string(static_cast<Verdict>(v)), d.modules_by_verdict[v]);
  }
  if (const std::string line = output_line(d.outputs); !line.empty())
    out += fmt::format("      <property name=\"outputs\" value=\"{}\"/>\n", xml_escape(line));
  if (!d.maps.empty())
    out += fmt::format("      <property name=\"maps\" value=\"{}\"/>\n", xml_escape(maps_text(d)));
  for (const auto& w : d.warnings)
    out += fmt::format("      <property name=\"warning\" value=\"{}\"/>\n", xml_escape(w));
  out += "    </properties>\n";
  for (const auto& g : gates) {
    out += fmt::format("    <testcase classname=\"flopscope.diff\" name=\"{}\">\n", xml_escape(g.name));
    if (g.passed) {
      out += fmt::format("      <system-out>{}</system-out>\n", xml_escape(g.message));
    } else {
      // The body says what the diff found, so a failed gate reads with the change that failed it.
      out += fmt::format("      <failure message=\"{}\" type=\"gate\">{}\n{}</failure>\n",
                         xml_escape(g.message), xml_escape(g.message), xml_escape(d.sentence.text()));
    }
    out += "    </testcase>\n";
  }
  out += fmt::format("    <system-out>{}</system-out>\n", xml_escape(d.sentence.text()));
  out += "  </testsuite>\n</testsuites>\n";
  return out;
}

}  // namespace flopscope::cli
