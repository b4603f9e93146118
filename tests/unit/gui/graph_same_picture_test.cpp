// The Graph tab and `flopscope graph` draw the same picture of the same run: the CLI binary writes its DOT
// for a run database, the GUI opens the same file, and every drawn node (label, fill, border, font colour)
// and every module cluster agree. One run (FLOPs heat) and a diff (v1 against v2).
#include <gtest/gtest.h>

#include <QFile>
#include <QProcess>
#include <functional>
#include <map>
#include <regex>
#include <set>
#include <sstream>

#include "analyzer/diff/path_map_specs.h"
#include "graphs/collapse.h"
#include "graphs/heat.h"
#include "graphs/render.h"
#include "gui/models/run_loader.h"
#include "gui/views/graph_items.h"
#include "gui/views/graph_page.h"
#include "tests/unit/gui/qt_environment.h"

namespace flopscope::gui::testing {
namespace {

struct DrawnNode {
  std::string label, fill, border, font;
  bool operator==(const DrawnNode& o) const {
    return label == o.label && fill == o.fill && border == o.border && font == o.font;
  }
};

std::ostream& operator<<(std::ostream& os, const DrawnNode& n) {
  return os << "[" << n.label << "] fill " << n.fill << " border " << n.border << " font " << n.font;
}

// A DOT string's text as drawn: the writer escapes '"', '\' and newlines.
std::string unquote(const std::string& quoted) {
  std::string out;
  for (std::size_t i = 0; i < quoted.size(); ++i) {
    if (quoted[i] != '\\' || i + 1 == quoted.size()) {
      out += quoted[i];
      continue;
    }
    char c = quoted[++i];
    out += c == 'n' ? '\n' : c;
  }
  return out;
}

std::string attribute(const std::string& attrs, const std::string& name, const std::string& fallback) {
  std::smatch m;
  if (std::regex_search(attrs, m, std::regex("(^|[ ,])" + name + "=\"([^\"]*)\""))) return m[2];
  return fallback;
}

// The CLI's nodes by name ("n12") and its clusters' module paths, parsed from the DOT it wrote. Defaults as
// in the writer's `node [...]` statement.
void parse_cli_dot(const std::string& dot, std::map<int, DrawnNode>& nodes, std::set<std::string>& clusters) {
  static const std::regex node_line(R"re(^\s*n(\d+) \[label="((?:[^"\\]|\\.)*)"(.*)\];$)re");
  static const std::regex cluster_tooltip(
      R"re(^\s*label="(?:[^"\\]|\\.)*"; tooltip="((?:[^"\\]|\\.)*)";$)re");
  std::size_t start = 0;
  while (start < dot.size()) {
    std::size_t end = dot.find('\n', start);
    if (end == std::string::npos) end = dot.size();
    const std::string line = dot.substr(start, end - start);
    start = end + 1;
    std::smatch m;
    if (std::regex_match(line, m, node_line)) {
      const std::string attrs = m[3];
      nodes[std::stoi(m[1])] = {unquote(m[2]), attribute(attrs, "fillcolor", "#ffffff"),
                                attribute(attrs, "color", "#777777"),
                                attribute(attrs, "fontcolor", "#000000")};
    } else if (std::regex_match(line, m, cluster_tooltip)) {
      clusters.insert(unquote(m[1]));
    }
  }
}

std::string hex(const QColor& c) {
  return c.name().toStdString();
}

// v1.db and v2.db: two profiled runs with their graphs.
void write_versions(const QString& dir) {
  write_database(sonnet_run({Variant::kV1}), (dir + QStringLiteral("/v1.db")).toStdString());
  FixtureOptions v2{Variant::kV2};
  v2.seed = 2;
  write_database(sonnet_run(v2), (dir + QStringLiteral("/v2.db")).toStdString());
}

void expect_same_picture(const QString& name, const QStringList& files, const QStringList& cli_args,
                         const std::function<void(const QString&)>& write = write_versions,
                         std::vector<std::string>* labels = nullptr) {
#ifndef FLOPSCOPE_CLI
  GTEST_SKIP() << "the flopscope CLI is not built";
#else
  if (!graphs::graphviz_rendering_available()) GTEST_SKIP() << "built without Graphviz";
  const QString dir = output_dir(QStringLiteral("same-picture-") + name);  // own folder: ctest -j runs both
  write(dir);

  QProcess cli;
  cli.setWorkingDirectory(dir);
  cli.start(QStringLiteral(FLOPSCOPE_CLI), QStringList{QStringLiteral("graph")} + cli_args +
                                               QStringList{QStringLiteral("-o"), QStringLiteral("cli.dot")});
  ASSERT_TRUE(cli.waitForFinished(60000));
  ASSERT_EQ(cli.exitCode(), 0) << cli.readAllStandardError().toStdString();
  QFile file(dir + QStringLiteral("/cli.dot"));
  ASSERT_TRUE(file.open(QIODevice::ReadOnly));
  std::map<int, DrawnNode> cli_nodes;
  std::set<std::string> cli_clusters;
  parse_cli_dot(file.readAll().toStdString(), cli_nodes, cli_clusters);
  ASSERT_GT(cli_nodes.size(), 20u);
  if (labels)
    for (const auto& [index, node] : cli_nodes) labels->push_back(node.label);

  QStringList paths;
  for (const auto& f : files) paths << dir + QStringLiteral("/") + f;
  auto session = load_session(paths);
  ASSERT_TRUE(session.ok()) << session.status().message();
  GraphPage page;
  page.setSession(*session);  // the default view: the CLI's --depth auto, FLOPs heat or diff colours
  ASSERT_EQ(page.nodeItems().size(), cli_nodes.size());
  for (auto* item : page.nodeItems()) {
    auto it = cli_nodes.find(item->index());
    ASSERT_NE(it, cli_nodes.end()) << item->index();
    const auto& laid_out = page.layout().nodes[static_cast<std::size_t>(item->index())];
    DrawnNode gui{item->label().toStdString(), hex(item->fill()), hex(item->border()), laid_out.font_color};
    EXPECT_EQ(gui, it->second) << "node n" << item->index();
  }
  std::set<std::string> gui_clusters;
  for (const auto& c : page.layout().clusters) gui_clusters.insert(c.module_path);
  EXPECT_EQ(gui_clusters, cli_clusters);
#endif
}

TEST(GraphSamePicture, OneRunHeatMatchesFlopscopeGraph) {
  expect_same_picture(QStringLiteral("run"), {QStringLiteral("v1.db")}, {QStringLiteral("v1.db")});
}

// An imported trace has no graph rows: both draw the graph of what ran (graphs/trace_graph.h), ops and
// their kernels by module, and agree node for node. The large one (24,000 ops, each launching a kernel) is
// bounded by --max-nodes, the "more" node included.
TEST(GraphSamePicture, ImportedTraceMatchesFlopscopeGraph) {
  expect_same_picture(QStringLiteral("trace"), {QStringLiteral("trace.db")}, {QStringLiteral("trace.db")},
                      [](const QString& dir) {
                        RunData run = sonnet_run({Variant::kV1});
                        run.graph_nodes.clear();
                        run.graph_edges.clear();
                        run.info.source_kind = SourceKind::kKineto;
                        run.info.source_path = "trace.json";
                        write_database(run, (dir + QStringLiteral("/trace.db")).toStdString());
                      });
}

TEST(GraphSamePicture, LargeTraceIsBoundedAndMatchesFlopscopeGraph) {
  std::vector<std::string> labels;
  expect_same_picture(
      QStringLiteral("large"), {QStringLiteral("large.db")}, {QStringLiteral("large.db")},
      [](const QString& dir) {
        write_database(large_run(24000, 10), (dir + QStringLiteral("/large.db")).toStdString());
      },
      &labels);
  // 2,400 ops a iteration, each with its kernel: 299 nodes drawn and one for the rest.
  EXPECT_LE(labels.size(), graphs::kDefaultMaxNodes);
  std::size_t more = 0;
  for (const auto& l : labels) more += l.find("more ops and") != std::string::npos ? 1 : 0;
  EXPECT_EQ(more, 1u);
}

TEST(GraphSamePicture, DiffMatchesFlopscopeGraphDiff) {
  expect_same_picture(QStringLiteral("diff"), {QStringLiteral("v1.db"), QStringLiteral("v2.db")},
                      {QStringLiteral("v1.db"), QStringLiteral("--diff"), QStringLiteral("v2.db")});
}

// The changed op nodes of a diff, by tooltip (the op's identity) and fill (its diff state).
using ChangedNodes = std::multiset<std::pair<std::string, std::string>>;

ChangedNodes cli_changed_nodes(const std::string& dot) {
  static const std::regex node_line(R"re(^\s*n\d+ \[label="(?:[^"\\]|\\.)*"(.*)\];$)re");
  const std::string unchanged = graphs::diff_style(DiffStatus::kUnchanged).fill;
  ChangedNodes out;
  std::istringstream lines(dot);
  for (std::string line; std::getline(lines, line);) {
    std::smatch m;
    if (!std::regex_match(line, m, node_line)) continue;
    const std::string attrs = m[1];
    const std::string fill = attribute(attrs, "fillcolor", unchanged);
    if (fill != unchanged) out.insert({unquote(attribute(attrs, "tooltip", "")), fill});
  }
  return out;
}

ChangedNodes gui_changed_nodes(const graphs::OpGraph& graph) {
  ChangedNodes out;
  for (const auto& n : graphs::collapse(graph, graphs::kOpLevel).nodes)
    if (n.diff != DiffStatus::kUnchanged) out.insert({n.identity, graphs::diff_style(n.diff).fill});
  return out;
}

// The GUI's diff graph of two runs opened with --map-b (and --no-align) names the changed op nodes that
// `flopscope graph A --diff B --map-b ...` draws: one pairing, the core's.
TEST(GraphSamePicture, DiffWithMapsNamesTheCliChangedNodes) {
#ifndef FLOPSCOPE_CLI
  GTEST_SKIP() << "the flopscope CLI is not built";
#else
  const QString dir = output_dir(QStringLiteral("same-picture-maps"));
  write_database(sonnet_run({Variant::kV1}), (dir + QStringLiteral("/v1.db")).toStdString());
  FixtureOptions v2{Variant::kV2};
  v2.seed = 2;
  write_database(sonnet_run(v2), (dir + QStringLiteral("/v2.db")).toStdString());
  const std::string map = "layers\\.1\\.mlp\\.up=layers.1.mlp.fc1";

  QProcess cli;
  cli.setWorkingDirectory(dir);
  cli.start(QStringLiteral(FLOPSCOPE_CLI),
            {QStringLiteral("graph"), QStringLiteral("v1.db"), QStringLiteral("--diff"),
             QStringLiteral("v2.db"), QStringLiteral("--depth"), QStringLiteral("ops"),
             QStringLiteral("--map-b"), QString::fromStdString(map), QStringLiteral("--no-align"),
             QStringLiteral("-o"), QStringLiteral("maps.dot")});
  ASSERT_TRUE(cli.waitForFinished(60000));
  ASSERT_EQ(cli.exitCode(), 0) << cli.readAllStandardError().toStdString();
  QFile file(dir + QStringLiteral("/maps.dot"));
  ASSERT_TRUE(file.open(QIODevice::ReadOnly));
  const ChangedNodes cli_changed = cli_changed_nodes(file.readAll().toStdString());

  DiffOptions options;
  ASSERT_TRUE(parse_path_maps({{}, {}, {map}, true}, options).ok());
  const QStringList paths{dir + QStringLiteral("/v1.db"), dir + QStringLiteral("/v2.db")};
  auto mapped = load_session(paths, {}, options);
  ASSERT_TRUE(mapped.ok()) << mapped.status().message();
  EXPECT_EQ(gui_changed_nodes((*mapped)->graph), cli_changed);
  // The map decides what changed: without it the same two runs differ elsewhere.
  auto plain = load_session(paths);
  ASSERT_TRUE(plain.ok()) << plain.status().message();
  EXPECT_NE(gui_changed_nodes((*plain)->graph), cli_changed);
  bool fc1 = false;
  for (const auto& [tooltip, fill] : cli_changed) fc1 = fc1 || tooltip.find("mlp.fc1") != std::string::npos;
  EXPECT_TRUE(fc1) << "B's renamed module is new on the graph";
#endif
}

// A build without Graphviz has no layout: the page draws nothing and says why in one line.
TEST(GraphSamePicture, WithoutGraphvizThePageSaysSoInOneLine) {
  GraphPage page;
  page.setSession(fixture_session(Variant::kV1));
  if (graphs::graphviz_rendering_available()) {
    EXPECT_FALSE(page.nodeItems().empty());
    EXPECT_TRUE(page.infoText().contains(QStringLiteral("graph nodes"))) << page.infoText().toStdString();
    return;
  }
  EXPECT_TRUE(page.nodeItems().empty());
  EXPECT_TRUE(page.infoText().contains(QStringLiteral("without Graphviz"))) << page.infoText().toStdString();
  EXPECT_FALSE(page.infoText().contains(QLatin1Char('\n')));
}

}  // namespace
}  // namespace flopscope::gui::testing
