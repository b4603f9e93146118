// The Ranks tab of a distributed run: its matrix is the core's per-rank module times, its straggler line
// is the one `flopscope report` prints for the same files, and its rank selector changes the run the
// other tabs show. On the two-rank HTA fixture (tests/data/kineto) and on synthetic ranks written here.
#include <gtest/gtest.h>

#include <QComboBox>
#include <QFileInfo>
#include <QSpinBox>
#include <QTabWidget>
#include <QTest>
#include <algorithm>
#include <iostream>

#include "analyzer/fleet/ranks_analysis.h"
#include "analyzer/format.h"
#include "cli/printers/rank_report.h"
#include "gui/models/module_tree_model.h"
#include "gui/models/rank_matrix_model.h"
#include "gui/models/roles.h"
#include "gui/views/heatmap_page.h"
#include "gui/views/main_window.h"
#include "gui/views/module_tree_page.h"
#include "gui/views/ranks_page.h"
#include "tests/unit/gui/qt_environment.h"

namespace flopscope::gui::testing {
namespace {

const QStringList kHta = {
    QStringLiteral(FLOPSCOPE_SOURCE_DIR "/tests/data/kineto/hta__trace_filter__sampled_rank-0.json.gz"),
    QStringLiteral(FLOPSCOPE_SOURCE_DIR "/tests/data/kineto/hta__trace_filter__sampled_rank-1.json.gz")};

std::vector<std::string> std_paths(const QStringList& paths) {
  std::vector<std::string> v;
  for (const auto& p : paths) v.push_back(p.toStdString());
  return v;
}

// What `flopscope report FILES...` computes and prints, through the CLI's own opening and printer.
struct CliReport {
  RankReport report;
  std::string table;
  std::string line(const std::string& prefix) const {
    std::size_t at = table.find("\n" + prefix);
    if (at == std::string::npos) return {};
    return table.substr(at + 1, table.find('\n', at + 1) - at - 1);
  }
};

CliReport cli_report(const QStringList& paths) {
  auto ranks = RankAnalysis::open(std_paths(paths));
  EXPECT_TRUE(ranks.ok()) << ranks.status().message();
  return {ranks->report(), cli::render_rank_report_table(ranks->report(), -1)};
}

// Every cell of the page's matrix against the CLI's report, matched by module path and rank; and every
// module the CLI reports down to the depth (with time on some rank) has a row.
void expect_matrix_equals(const RankMatrixModel& model, const RankReport& cli, int depth) {
  ASSERT_EQ(model.columnCount(), static_cast<int>(cli.ranks.size()));
  for (int c = 0; c < model.columnCount(); ++c)
    EXPECT_EQ(model.headerData(c, Qt::Horizontal).toString(),
              QStringLiteral("rank %1").arg(cli.ranks[c].rank));
  int expected_rows = 0;
  for (const auto& m : cli.modules) expected_rows += m.depth <= depth && m.time.max > 0;
  ASSERT_GT(expected_rows, 0);
  ASSERT_EQ(model.rowCount(), expected_rows);
  for (int r = 0; r < model.rowCount(); ++r) {
    const std::string path = model.index(r, 0).data(kPathRole).toString().toStdString();
    auto it =
        std::find_if(cli.modules.begin(), cli.modules.end(), [&](const auto& m) { return m.path == path; });
    ASSERT_NE(it, cli.modules.end()) << path;
    for (int c = 0; c < model.columnCount(); ++c) {
      const QVariant v = model.index(r, c).data(kSortRole);
      const auto& want = it->time_p50[static_cast<std::size_t>(c)];
      ASSERT_EQ(v.isValid(), want.has_value()) << path << " rank column " << c;
      if (want) {
        EXPECT_EQ(v.toDouble(), *want) << path << " rank column " << c;
        EXPECT_EQ(model.index(r, c).data().toString().toStdString(), time_text(*want));
        // The painted cell is the same number.
        EXPECT_EQ(model.heatmap().data.value(static_cast<std::size_t>(r), static_cast<std::size_t>(c)),
                  *want);
      } else {
        EXPECT_EQ(model.index(r, c).data().toString(), QStringLiteral("absent"));
      }
    }
  }
}

// Three ranks of the sonnet-mini fixture: rank 1 is v2 (no position_adaptive_bias modules), rank 2 runs
// every op and kernel at half speed, so it is the straggler.
QStringList write_synthetic_ranks(const QString& dir) {
  QStringList paths;
  for (int rank = 0; rank < 3; ++rank) {
    FixtureOptions o{rank == 1 ? Variant::kV2 : Variant::kV1};
    o.seed = static_cast<unsigned>(rank + 1);
    RunData run = sonnet_run(o);
    if (rank == 2) {
      for (auto& op : run.ops) op.start_ns *= 2, op.duration_ns *= 2;
      for (auto& k : run.kernels) k.start_ns *= 2, k.duration_ns *= 2;
    }
    paths << dir + QStringLiteral("/run.rank%1.db").arg(rank);
    write_database(run, paths.back().toStdString());
  }
  return paths;
}

TEST(Ranks, WhatOpensAsRanks) {
  EXPECT_TRUE(opens_ranks({QStringLiteral("a/run.rank0.db"), QStringLiteral("a/run.rank1.db")}));
  EXPECT_TRUE(opens_ranks(kHta));
  EXPECT_FALSE(opens_ranks({QStringLiteral("v1.db"), QStringLiteral("v2.db")}));  // a diff
  EXPECT_FALSE(opens_ranks({QStringLiteral("a/run.rank0.db"), QStringLiteral("b/run.rank0.db")}));
  EXPECT_FALSE(opens_ranks({QStringLiteral("v1.db")}));
  EXPECT_TRUE(opens_ranks({QStringLiteral(FLOPSCOPE_SOURCE_DIR "/tests/data/kineto")}));  // a folder
}

TEST(Ranks, HtaTwoRanksMatrixAndStragglerLineAreTheReports) {
  auto session = load_session(kHta);
  ASSERT_TRUE(session.ok()) << session.status().message();
  ASSERT_TRUE((*session)->has_ranks());
  ASSERT_EQ((*session)->ranks->runs.size(), 2u);
  EXPECT_EQ((*session)->a, (*session)->ranks->runs[0]);
  const CliReport cli = cli_report(kHta);
  RanksPage page;
  page.setSession(*session);
  for (int depth : {page.depthBox()->value(), 20}) {
    page.depthBox()->setValue(depth);
    SCOPED_TRACE(depth);
    expect_matrix_equals(*page.model(), cli.report, depth);
  }
  const std::string line = cli.line("straggler:");
  ASSERT_FALSE(line.empty()) << cli.table;
  EXPECT_EQ(page.stragglerText().toStdString(), line);
  EXPECT_TRUE(page.summaryText().contains(QString::fromStdString(cli.line("communication:"))));
  std::cout << "CLI report: " << line << "\nGUI Ranks:  " << page.stragglerText().toStdString() << "\n";
  // The selector lists both ranks, by the rank distributedInfo gives.
  ASSERT_EQ(page.rankSelector()->count(), 2);
  EXPECT_TRUE(page.rankSelector()->itemText(1).startsWith(QStringLiteral("rank 1 ")));
}

TEST(Ranks, SyntheticRanksStragglerAbsentModulesAndFolder) {
  const QString dir = output_dir(QStringLiteral("ranks"));
  const QStringList paths = write_synthetic_ranks(dir);
  for (const QStringList& args : {paths, QStringList{dir}}) {
    auto session = load_session(args);
    ASSERT_TRUE(session.ok()) << session.status().message();
    const CliReport cli = cli_report(args);
    ASSERT_EQ(cli.report.ranks.size(), 3u);
    RanksPage page;
    page.setSession(*session);
    page.depthBox()->setValue(20);
    expect_matrix_equals(*page.model(), cli.report, 20);
    // Known from the construction: rank 2 is twice as slow, so the straggler, imbalance > 0.
    EXPECT_EQ(cli.report.iteration.straggler, 2);
    EXPECT_GT(cli.report.iteration.imbalance, 0.2);
    EXPECT_TRUE(page.stragglerText().startsWith(QStringLiteral("straggler: rank 2 ")));
    EXPECT_EQ(page.stragglerText().toStdString(), cli.line("straggler:"));
    // rank 1 (v2) has no position_adaptive_bias: its cell says so.
    bool found = false;
    for (int r = 0; r < page.model()->rowCount(); ++r) {
      if (page.model()->index(r, 0).data(kPathRole).toString() !=
          QStringLiteral("layers.0.attn.position_adaptive_bias"))
        continue;
      found = true;
      EXPECT_EQ(page.model()->index(r, 1).data().toString(), QStringLiteral("absent"));
      EXPECT_GT(page.model()->index(r, 2).data(kSortRole).toDouble(),
                page.model()->index(r, 0).data(kSortRole).toDouble());
    }
    EXPECT_TRUE(found);
  }
}

TEST(Ranks, SwitchingRankChangesTheRunTheOtherTabsShow) {
  const QStringList paths = write_synthetic_ranks(output_dir(QStringLiteral("ranks_switch")));
  auto session = load_session(paths);
  ASSERT_TRUE(session.ok()) << session.status().message();
  MainWindow w;
  w.setSession(*session);
  w.show();
  ASSERT_TRUE(QTest::qWaitForWindowExposed(&w));
  EXPECT_EQ(w.currentView(), w.ranksPage());  // a distributed run opens on its Ranks tab
  const QString bias = QStringLiteral("layers.0.attn.position_adaptive_bias");
  EXPECT_TRUE(w.treePage()->model()->indexForPath(bias).isValid());  // rank 0 is v1
  // Pick rank 1 in the selector, as a user would (keyboard on the combo box).
  QComboBox* selector = w.ranksPage()->rankSelector();
  selector->setFocus();
  QTest::keyClick(selector, Qt::Key_Down);
  if (w.session()->rank_index != 1) {  // styles where arrows only open the popup
    selector->setCurrentIndex(1);
    Q_EMIT selector->activated(1);
  }
  ASSERT_EQ(w.session()->rank_index, 1);
  EXPECT_EQ(w.session()->a, w.session()->ranks->runs[1]);
  EXPECT_EQ(QFileInfo(w.session()->a->path).fileName(), QStringLiteral("run.rank1.db"));
  EXPECT_FALSE(w.treePage()->model()->indexForPath(bias).isValid());  // rank 1 is v2: the tree changed
  EXPECT_TRUE(w.windowTitle().contains(QStringLiteral("rank 1 of 3")));
  EXPECT_EQ(w.currentView(), w.ranksPage());
  EXPECT_EQ(selector->currentIndex(), 1);
  // Back to rank 2: same rank set, the matrix was not rebuilt from another report.
  selector->setCurrentIndex(2);
  Q_EMIT selector->activated(2);
  EXPECT_EQ(w.session()->a, w.session()->ranks->runs[2]);
  EXPECT_TRUE(w.treePage()->model()->indexForPath(bias).isValid());
  // A plain run hides the tab again.
  auto* tabs = w.findChild<QTabWidget*>();
  ASSERT_NE(tabs, nullptr);
  EXPECT_TRUE(tabs->isTabVisible(tabs->indexOf(w.ranksPage())));
  w.setSession(fixture_session(Variant::kV1));
  EXPECT_FALSE(tabs->isTabVisible(tabs->indexOf(w.ranksPage())));
}

}  // namespace
}  // namespace flopscope::gui::testing
