// Hostile inputs that are easiest to build in memory: parent cycles, escaping payloads, --map on a huge
// path, impossible shapes. The file-level cases are in hostile.sh.
#include <gtest/gtest.h>

#include <string>

#include "analyzer/diff/diff.h"
#include "analyzer/flops/registry.h"
#include "db/model/module_path.h"
#include "db/model/text_escape.h"
#include "graphs/dot_writer.h"
#include "graphs/render.h"
#include "graphs/run_costs.h"

namespace flopscope {
namespace {

OpRecord op(Id id, Id parent, const char* name) {
  OpRecord r;
  r.id = id;
  r.parent_op_id = parent;
  r.name = name;
  r.module_id = 0;
  r.flops = 10;
  r.duration_ns = 5;
  r.flops_source = FlopsSource::kFormula;
  return r;
}

// An op that is its own parent, and a two-op cycle: the walks must end (the test has a CTest timeout).
TEST(HostileGraph, ParentCyclesEnd) {
  RunData run;
  run.modules = {{0, kNoId, "", "Model"}};
  run.ops = {op(1, 1, "aten::relu"), op(2, 3, "aten::add"), op(3, 2, "aten::mul")};
  graphs::OpGraph g;
  for (const char* kind : {"aten::relu", "aten::add", "aten::mul", "aten::exp"}) {
    graphs::OpNode n;
    n.kind = kind;
    g.nodes.push_back(n);
  }
  graphs::CostMatch m = graphs::attach_run_costs(g, run);
  EXPECT_EQ(m.matched + m.unmatched, 4u);
}

TEST(HostileGraph, ModuleParentCycleEnds) {
  ModuleTree tree({{0, kNoId, "", "M"}, {1, 2, "a", "A"}, {2, 1, "b", "B"}});
  EXPECT_LE(tree.chain(1).size(), 4u);
}

TEST(HostileMap, LinearTimeOnA50KbPath) {
  auto m = parse_path_map("(.*)=$1");
  ASSERT_TRUE(m.ok()) << m.status().message();
  const std::string path(50000, 'L');
  EXPECT_EQ(apply_path_maps({*m}, path), path);
  auto nested = parse_path_map("(a*)*b=x");  // exponential in a backtracking engine
  ASSERT_TRUE(nested.ok());
  EXPECT_EQ(apply_path_maps({*nested}, std::string(30000, 'a')), std::string(30000, 'a'));
  EXPECT_FALSE(parse_path_map("x=$q").ok());
}

TEST(HostileEscape, MarkdownCannotOpenAHeadingOrImage) {
  const std::string evil = "X`\n\n### Gates: all passed\n\n![t](https://example.invalid/t.png)";
  const std::string code = markdown_code(evil, true);
  EXPECT_EQ(code.find('\n'), std::string::npos);
  EXPECT_TRUE(code.starts_with("``")) << code;  // longer fence than the backtick inside
  const std::string text = markdown_escape(evil);
  EXPECT_EQ(text.find('\n'), std::string::npos);
  EXPECT_EQ(text.find("!["), std::string::npos);
  EXPECT_NE(text.find("\\!\\["), std::string::npos);
}

TEST(HostileEscape, XmlHasOnlyXml10Characters) {
  const std::string x =
      xml_escape(std::string("a\x01"
                             "b\x1b[31m<&>\xff"));
  for (unsigned char c : x) EXPECT_TRUE(c >= 0x20 || c == '\t' || c == '\n' || c == '\r') << int(c);
  EXPECT_NE(x.find("\\x01"), std::string::npos);
  EXPECT_NE(x.find("\\xff"), std::string::npos);
  EXPECT_NE(x.find("&lt;&amp;&gt;"), std::string::npos);
}

TEST(HostileEscape, CsvFormulasNeutralised) {
  for (const char* cell : {"=1+1", "+cmd", "-2+3", "@SUM(A1)"}) {
    EXPECT_EQ(csv_field(cell).find_first_of("=+-@\t\r"), csv_field(cell)[0] == '"' ? 2u : 1u) << cell;
  }
  // A leading tab or CR is shown as text (\x09, \x0d) as on the terminal: nothing left to run.
  EXPECT_EQ(csv_field("\tx"), "\\x09x");
  EXPECT_EQ(csv_field("\ry"), "\\x0dy");
  EXPECT_EQ(csv_field("layers.0"), "layers.0");
  EXPECT_EQ(csv_field("a,b"), "\"a,b\"");
}

TEST(HostileEscape, GraphvizShowsEntitiesAndControlsAsWritten) {
  // Graphviz decodes &lt; in any label: the & must be escaped for the name to render as written.
  const std::string q = graphs::dot_quote("Lin&lt;ear\x1b[31m\u202e");
  EXPECT_EQ(q, "\"Lin&amp;lt;ear\\\\x1b[31m\\\\u202e\"");
#ifndef FLOPSCOPE_TEST_GRAPHVIZ
  GTEST_SKIP() << "no Graphviz rendering in this build";
#else
  auto svg = graphs::render_dot("digraph { n [label=" + q + "]; }", graphs::GraphFormat::kSvg);
  ASSERT_TRUE(svg.ok()) << svg.status().message();
  // SVG text escapes '&' itself: "&amp;lt;" is the name's "&lt;" shown literally, not a '<'.
  EXPECT_NE(svg->find(">Lin&amp;lt;ear\\x1b[31m\\u202e<"), std::string::npos) << *svg;
#endif
}

TEST(HostileEscape, TerminalGetsNoEscapeSequences) {
  const std::string t = terminal_safe(
      "name\x1b]0;pwned\x07\x1b[31m\xc2\x9b"
      "end\nnext",
      true);
  EXPECT_EQ(t.find('\x1b'), std::string::npos);
  EXPECT_EQ(t.find('\x07'), std::string::npos);
  EXPECT_EQ(t.find("\xc2\x9b"), std::string::npos);  // C1 CSI
  EXPECT_NE(t.find('\n'), std::string::npos);
  EXPECT_EQ(terminal_safe("a\nb", false), "a\\x0ab");
}

TEST(HostileShapes, NegativeAndHugeShapesGiveUnknownNotNumbers) {
  const auto& reg = FlopsRegistry::builtin();
  auto tensor = [](std::vector<std::int64_t> shape) {
    OpArg a;
    a.is_tensor = true;
    a.dtype = "float32";
    a.shape = std::move(shape);
    return a;
  };
  std::vector<OpArg> neg = {tensor({-5, 8}), tensor({8, 4})};
  FlopsResult r = reg.evaluate("aten::mm", neg);
  EXPECT_FALSE(r.known);
  EXPECT_TRUE(r.invalid_args);
  std::vector<OpArg> huge = {tensor({1000000000000, 1000000000000}), tensor({1000000000000, 1000000000000})};
  r = reg.evaluate("aten::mm", huge);
  EXPECT_FALSE(r.known);
  EXPECT_TRUE(r.invalid_args);
  std::vector<OpArg> fine = {tensor({2, 8}), tensor({8, 4})};
  r = reg.evaluate("aten::mm", fine);
  EXPECT_TRUE(r.known);
  EXPECT_EQ(r.flops, 2.0 * 2 * 8 * 4);
}

}  // namespace
}  // namespace flopscope
