// A self-contained HTML page: no scripts or external resources. The diff graph SVG, when given, is embedded
// as an image (a data: URI), never inlined: browsers render SVG images without scripts, event handlers or
// external loads, so a crafted SVG file cannot run code in the report.
#include <fmt/format.h>

#include <cstdint>

#include "analyzer/diff/verdict_palette.h"
#include "cli/printers/diff_tables.h"

namespace flopscope::cli {
namespace {

constexpr const char* kStyle = R"(body{font-family:system-ui,sans-serif;margin:2em;color:#222}
table{border-collapse:collapse;font-size:13px;margin:1em 0}th,td{border:1px solid #ccc;padding:3px 8px}
th{background:#f0f0f0}td.num{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}
summary h2{display:inline}
.pass{color:#0a7d2c}.fail{color:#b00020;font-weight:600}.graph img{max-width:100%;height:auto}
code{background:#f5f5f5;padding:0 3px}.summary{font-size:1.15em;font-weight:600;padding:.5em .8em;background:#f4f8ff;border-left:4px solid #3b528b}
.summary.failed{background:#fdecee;border-left-color:#b00020}.summary.passed{border-left-color:#0a7d2c}
.summary p{margin:.2em 0})";

// Verdict classes in the core's palette, as the GUI and the diff graph colour them.
std::string verdict_style() {
  std::string out;
  for (int i = 0; i < kVerdictCount; ++i) {
    const auto v = static_cast<Verdict>(i);
    if (v != Verdict::kUnchanged)
      out += fmt::format(".v-{}{{color:{};font-weight:600}}", to_string(v), verdict_color(v).text);
  }
  return out + "\n";
}

std::string base64(const std::string& bytes) {
  static constexpr char kDigits[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  out.reserve((bytes.size() + 2) / 3 * 4);
  for (std::size_t i = 0; i < bytes.size(); i += 3) {
    std::uint32_t v = static_cast<unsigned char>(bytes[i]) << 16;
    if (i + 1 < bytes.size()) v |= static_cast<unsigned char>(bytes[i + 1]) << 8;
    if (i + 2 < bytes.size()) v |= static_cast<unsigned char>(bytes[i + 2]);
    out += kDigits[(v >> 18) & 63];
    out += kDigits[(v >> 12) & 63];
    out += i + 1 < bytes.size() ? kDigits[(v >> 6) & 63] : '=';
    out += i + 2 < bytes.size() ? kDigits[v & 63] : '=';
  }
  return out;
}

std::string svg_image(const std::string& svg) {
  if (svg.empty()) return {};
  return "<img alt=\"diff graph\" src=\"data:image/svg+xml;base64," + base64(svg) + "\">";
}

}  // namespace

std::string render_diff_html(const RunDiff& d, const std::vector<GateResult>& gates,
                             const DiffReportOptions& o, const std::string& svg) {
  std::string out =
      "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>flopscope diff</title>\n";
  out +=
      std::string("<style>") + verdict_style() + kStyle + "</style></head><body>\n<h1>flopscope diff</h1>\n";
  // The headline box says first whether the merge may go: a failing gate turns it red and says so above the
  // summary sentence.
  int failed = 0;
  for (const auto& g : gates) failed += g.passed ? 0 : 1;
  const char* box = gates.empty() ? "summary" : failed > 0 ? "summary failed" : "summary passed";
  std::string gate_line;
  if (!gates.empty()) {
    gate_line = failed > 0 ? fmt::format("<p class=\"gates fail\">{} of {} gate{} failed</p>", failed,
                                         gates.size(), gates.size() == 1 ? "" : "s")
                           : fmt::format("<p class=\"gates pass\">{} gate{} passed</p>", gates.size(),
                                         gates.size() == 1 ? "" : "s");
  }
  out += fmt::format("<div class=\"{}\">{}<p class=\"sentence\">{}</p></div>\n<ul>\n", box, gate_line,
                     sentence_html(d));
  out +=
      fmt::format("<li><b>{}</b>: {}</li>\n<li><b>{}</b>: {}</li>\n<li><b>End to end</b>: {}</li>\n</ul>\n",
                  html_escape(o.label_a), html_escape(run_line(d.info_a, d.a)), html_escape(o.label_b),
                  html_escape(run_line(d.info_b, d.b)), html_escape(totals_text(d)));
  if (!d.maps.empty()) out += "<p><b>Path maps</b>: " + html_escape(maps_text(d)) + "</p>\n";
  if (!gates.empty()) {
    out += "<h2>Gates</h2>\n<ul>\n";
    for (const auto& g : gates) {
      out += fmt::format("<li class=\"{}\">{} <code>{}</code>: {}</li>\n", g.passed ? "pass" : "fail",
                         g.passed ? "PASS" : "FAIL", html_escape(g.name), html_escape(g.message));
    }
    out += "</ul>\n";
  }
  out += "<h2>Verdicts</h2>\n<ul>\n";
  bool any = false;
  for (const auto& m : d.modules) {
    if (!m.headline) continue;
    any = true;
    out += fmt::format("<li><code>{}</code>: <span class=\"v-{}\">{}</span></li>\n", html_escape(m.path),
                       to_string(m.verdict), html_escape(verdict_text(m)));
  }
  if (!any) out += "<li>No module vanished, appeared, moved or went dormant.</li>\n";
  out += "</ul>\n";
  if (const std::string line = output_line(d.outputs); !line.empty())
    out += "<p class=\"outputs\">" + html_escape(line) + "</p>\n";
  out += fmt::format("<h2>Modules ({})</h2>\n", html_escape(module_counts_text(d)));
  out += module_table(d, o).to_html();
  std::size_t more = 0;
  out += fmt::format("<h2>Op signatures ({})</h2>\n<p>{}</p>\n", html_escape(status_counts(d.ops_by_status)),
                     html_escape(op_ranking_text(d)));
  out += op_table(d, o, &more).to_html();
  if (more > 0) out += fmt::format("<p>{} more op signatures not shown.</p>\n", more);
  if (const std::string orphans = orphan_kernels_text(d); !orphans.empty())
    out += "<p>" + html_escape(orphans) + "</p>\n";
  out += "<h2>Op categories</h2>\n<p>" + html_escape(category_heading(d)) + "</p>\n" +
         category_table(d).to_html();
  if (!d.warnings.empty()) {
    out += "<h2>Warnings</h2>\n<ul>\n";
    for (const auto& w : d.warnings) out += "<li>" + html_escape(w) + "</li>\n";
    out += "</ul>\n";
  }
  // The graph last and folded: the summary and the tables are what a reviewer reads first.
  std::string graph = svg_image(svg);
  if (!graph.empty()) {
    out += "<details class=\"graph\"><summary><h2>Diff graph</h2></summary>\n" + graph + "\n</details>\n";
  }
  return out + "</body></html>\n";
}

}  // namespace flopscope::cli
