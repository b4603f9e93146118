// The saving first: the one summary sentence of a diff reads the same in every view. Each output is
// unescaped here the way its reader would (a Markdown renderer, a browser, an XML parser, a JSON parser,
// the terminal, the GUI's rich text) and compared with the core's sentence.
#include <gtest/gtest.h>

#include <QTextDocumentFragment>
#include <cstring>
#include <nlohmann/json.hpp>
#include <regex>

#include "cli/printers/diff_report.h"
#include "gui/views/diff_page.h"
#include "gui/views/main_window.h"
#include "tests/unit/gui/qt_environment.h"

namespace flopscope::gui::testing {
namespace {

std::string first_line(const std::string& s) {
  return s.substr(0, s.find('\n'));
}

std::string unescape_entities(std::string s) {
  for (auto [from, to] : {std::pair{"&lt;", "<"}, std::pair{"&gt;", ">"}, std::pair{"&quot;", "\""},
                          std::pair{"&#39;", "'"}, std::pair{"&apos;", "'"}, std::pair{"&amp;", "&"}}) {
    for (std::size_t at; (at = s.find(from)) != std::string::npos;) s.replace(at, std::strlen(from), to);
  }
  return s;
}

// A Markdown line as rendered text: bold markers, code fences and backslash escapes removed.
std::string markdown_text(std::string line) {
  EXPECT_EQ(line.rfind("**", 0), 0u) << line;
  line = line.substr(2, line.size() - 4);
  std::string out;
  for (std::size_t i = 0; i < line.size(); ++i) {
    if (line[i] == '\\' && i + 1 < line.size())
      out += line[++i];
    else if (line[i] != '`')
      out += line[i];
  }
  return out;
}

std::string between(const std::string& s, const std::string& open, const std::string& close) {
  auto a = s.find(open);
  if (a == std::string::npos) return "<missing " + open + ">";
  a += open.size();
  return s.substr(a, s.find(close, a) - a);
}

void expect_same_sentence_everywhere(Variant vb, const std::string& starts_with) {
  auto session = fixture_session(Variant::kV1, vb);
  RunDiff d = diff_runs(session->a->data, session->b->data);
  const std::string sentence = d.sentence.text();
  ASSERT_EQ(sentence.rfind(starts_with, 0), 0u) << sentence;
  // The GUI computed its own diff of the same runs: the same sentence.
  ASSERT_TRUE(session->diff.engine);
  EXPECT_EQ(session->diff.engine->sentence.text(), sentence);

  std::vector<GateResult> gates = {{"forbid-active *position_adaptive_bias*", false, "1 active in B: x"}};
  // Terminal: the first line.
  EXPECT_EQ(first_line(cli::render_diff_table(d, gates, {})), sentence);
  // Markdown: the first line, for a PR comment; the module name is a code span.
  const std::string md = cli::render_diff_markdown(d, gates, {});
  EXPECT_NE(first_line(md).find("`position_adaptive_bias`"), std::string::npos) << first_line(md);
  EXPECT_EQ(markdown_text(first_line(md)), sentence);
  // HTML: the paragraph right under the title, before any table.
  const std::string html = cli::render_diff_html(d, gates, {}, "");
  // The box is marked failed and says so above the sentence (the gate above failed).
  EXPECT_NE(html.find("<div class=\"summary failed\"><p class=\"gates fail\">1 of 1 gate failed</p>"),
            std::string::npos);
  const std::string p = between(html, "<p class=\"sentence\">", "</p>");
  EXPECT_NE(p.find("<code>position_adaptive_bias</code>"), std::string::npos) << p;
  EXPECT_EQ(unescape_entities(std::regex_replace(p, std::regex("<[^>]*>"), "")), sentence);
  EXPECT_LT(html.find("class=\"summary"), html.find("<table"));
  // JSON.
  EXPECT_EQ(nlohmann::json::parse(cli::render_diff_json(d, gates, {}))["summary"]["sentence"], sentence);
  // JUnit: a suite property, the suite's output, and the failed gate's body.
  const std::string junit = cli::render_diff_junit(d, gates);
  EXPECT_EQ(unescape_entities(between(junit, "<property name=\"summary\" value=\"", "\"/>")), sentence);
  EXPECT_EQ(unescape_entities(between(junit, "</testcase>\n    <system-out>", "</system-out>")), sentence);
  EXPECT_NE(unescape_entities(between(junit, "type=\"gate\">", "</failure>")).find(sentence),
            std::string::npos);
  // GUI: the diff page's headline opens with it, as displayed.
  MainWindow w;
  w.setSession(session);
  EXPECT_EQ(w.diffPage()->sentence().toStdString(), sentence);
  const QString shown = QTextDocumentFragment::fromHtml(w.diffPage()->headline()).toPlainText();
  EXPECT_EQ(first_line(shown.toStdString()), sentence);
  // The lines under it are the CLI's too: the module counts and the end-to-end totals, as the terminal
  // report prints them (not a GUI-made "FLOPs per iteration" line).
  EXPECT_TRUE(shown.contains(QString::fromStdString("End to end: " + cli::totals_text(d))))
      << shown.toStdString();
  EXPECT_TRUE(shown.contains(QString::fromStdString("Modules: " + cli::module_counts_text(d))))
      << shown.toStdString();
}

TEST(SummarySentenceEverywhere, V1AgainstV2) {
  expect_same_sentence_everywhere(
      Variant::kV2,
      "2 x position_adaptive_bias VANISHED (weights ERASED), cost in A of the removed modules: ");
}

TEST(SummarySentenceEverywhere, V1AgainstV2z) {
  expect_same_sentence_everywhere(
      Variant::kV2z,
      "2 x position_adaptive_bias DORMANT (weights ZEROED), wasted in B by the dormant "
      "modules: ");
}

}  // namespace
}  // namespace flopscope::gui::testing
