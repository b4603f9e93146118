// The diff report (`flopscope diff A B`) in five forms: terminal table, Markdown for a PR comment,
// versioned JSON (docs/diff-json.md, the CI contract), JUnit XML (one test case per gate) and a
// self-contained HTML page.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "analyzer/diff/diff.h"
#include "analyzer/diff/gates.h"

namespace flopscope::cli {

struct DiffReportOptions {
  bool all_modules = false;  // list UNCHANGED modules too
  std::size_t top_ops = 15;  // changed op signatures listed
  std::string label_a = "A", label_b = "B";
};

// One line per module joining compute and weights, worded by the diff engine, e.g.
// "VANISHED: no ops in B (A: 64 ops, 1.80 GFLOPs, 12.0 MB, 0.900 ms P50); weights ERASED".
std::string verdict_text(const ModuleDiff& m);
// The end-to-end line: FLOPs, bytes, time (with CI) from A to B.
std::string totals_text(const RunDiff& d);
// Time change of a module or op: "-0.91 ms (95% CI [-0.95, -0.88] ms), faster" or "+1.2 us (not
// significant)".
std::string time_change_text(const MedianDifference& t, bool significant);
// "2 VANISHED, 1 DORMANT, 54 UNCHANGED; time: 1 slower, 0 faster": the counts every report prints.
std::string module_counts_text(const RunDiff& d);
// The path maps and container alignments used, "; "-separated ("" when none).
std::string maps_text(const RunDiff& d);
// The diff's summary sentence (analyzer/diff/summary_sentence.h) escaped for a target: module names as
// Markdown code spans or HTML <code>; the terminal form is one line.
std::string sentence_terminal(const RunDiff& d);
std::string sentence_markdown(const RunDiff& d);
std::string sentence_html(const RunDiff& d);
// Modules shown in reports: headlines, then every other non-UNCHANGED module (all with all_modules).
std::vector<const ModuleDiff*> modules_to_show(const RunDiff& d, const DiffReportOptions& o);

std::string render_diff_table(const RunDiff& d, const std::vector<GateResult>& gates,
                              const DiffReportOptions& o);
std::string render_diff_markdown(const RunDiff& d, const std::vector<GateResult>& gates,
                                 const DiffReportOptions& o);
std::string render_diff_json(const RunDiff& d, const std::vector<GateResult>& gates,
                             const DiffReportOptions& o);
// The same text in pieces of about a megabyte, each handed to `sink`, which may take the piece's text (the
// report of two 1M-kernel runs is ~100 MB). Stops at the first error of the sink and returns it.
using TextSink = std::function<Status(std::string& piece)>;
Status write_diff_json(const RunDiff& d, const std::vector<GateResult>& gates, const DiffReportOptions& o,
                       const TextSink& sink);
std::string render_diff_junit(const RunDiff& d, const std::vector<GateResult>& gates);
// `svg` is the diff graph (flopscope graph --diff), embedded inline when not empty.
std::string render_diff_html(const RunDiff& d, const std::vector<GateResult>& gates,
                             const DiffReportOptions& o, const std::string& svg);

}  // namespace flopscope::cli
