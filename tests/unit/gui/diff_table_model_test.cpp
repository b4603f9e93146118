#include "gui/models/diff_table_model.h"

#include <gtest/gtest.h>

#include <QAbstractItemModelTester>

#include "analyzer/diff/verdict_palette.h"
#include "cli/printers/diff_report.h"
#include "graphs/heat.h"
#include "gui/models/colors.h"
#include "gui/models/roles.h"
#include "tests/unit/gui/qt_environment.h"

namespace flopscope::gui::testing {
namespace {

TEST(DiffTableModel, ListsVanishedModulesFirstWithTheirWeights) {
  DiffTableModel model;
  QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
  auto session = fixture_session(Variant::kV1, Variant::kV2);
  model.setSession(session);
  EXPECT_EQ(session->diff.count(Verdict::kVanished), 2);  // one position_adaptive_bias per layer
  EXPECT_EQ(session->diff.count(Verdict::kNew), 0);
  ASSERT_GE(model.rowCount(), 2);
  for (int r = 0; r < 2; ++r) {
    EXPECT_EQ(model.index(r, DiffTableModel::kStatus).data().toString(), QStringLiteral("VANISHED"));
    EXPECT_TRUE(model.index(r, DiffTableModel::kModule)
                    .data()
                    .toString()
                    .endsWith(QStringLiteral("position_adaptive_bias")));
    EXPECT_EQ(model.index(r, DiffTableModel::kWeightsB).data().toString(), QStringLiteral("ERASED"));
    EXPECT_EQ(model.index(r, DiffTableModel::kTimeB).data().toString(), QStringLiteral("-"));
    // One side only: no time change to show (the CLI's tables leave it blank), not A's time negated.
    EXPECT_EQ(model.index(r, DiffTableModel::kDeltaTime).data().toString(), QString());
    EXPECT_TRUE(model.index(r, DiffTableModel::kVerdict)
                    .data()
                    .toString()
                    .contains(QStringLiteral("weights ERASED")));
  }
  const int changed_only = model.rowCount();
  model.setShowUnchanged(true);
  EXPECT_EQ(model.rowCount(), static_cast<int>(session->diff.nodes.size()));
  EXPECT_GT(model.rowCount(), changed_only);
}

TEST(DiffTableModel, DormantModulesComeBeforeOtherChanges) {
  DiffTableModel model;
  model.setSession(fixture_session(Variant::kV1, Variant::kV2z));
  ASSERT_GE(model.rowCount(), 2);
  for (int r = 0; r < 2; ++r) {
    EXPECT_TRUE(
        model.index(r, DiffTableModel::kVerdict).data().toString().startsWith(QStringLiteral("DORMANT")));
    EXPECT_EQ(model.index(r, DiffTableModel::kStatus).data().toString(), QStringLiteral("DORMANT"));
    EXPECT_EQ(model.index(r, DiffTableModel::kWeightsB).data().toString(), QStringLiteral("ZEROED"));
  }
}

// Runs of one process each: a module's time delta is shown, marked n/a, its tip says why; never "slower".
TEST(DiffTableModel, TimeAcrossOneProcessEachIsNotAssessable) {
  DiffTableModel model;
  model.setSession(fixture_session(Variant::kV1, Variant::kV2z));
  model.setShowUnchanged(true);
  int marked = 0;
  for (int r = 0; r < model.rowCount(); ++r) {
    const QModelIndex delta = model.index(r, DiffTableModel::kDeltaTime);
    if (!delta.data().toString().endsWith(QStringLiteral(" n/a"))) continue;
    ++marked;
    EXPECT_TRUE(
        delta.data(Qt::ToolTipRole).toString().contains(QStringLiteral("not assessable across processes")));
  }
  EXPECT_GT(marked, 0);
  for (int r = 0; r < model.rowCount(); ++r) {
    EXPECT_FALSE(
        model.index(r, DiffTableModel::kDeltaTime).data().toString().contains(QStringLiteral("slower")));
  }
}

TEST(DiffTableModel, EmptyForOneRun) {
  DiffTableModel model;
  QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
  model.setSession(fixture_session(Variant::kV1));
  EXPECT_EQ(model.rowCount(), 0);
}

TEST(DiffTableModel, RunAgainstItselfIsAllUnchanged) {
  auto a = make_loaded_run(QStringLiteral("v1.db"), sonnet_run({Variant::kV1}));
  auto s = make_session(a, a);
  EXPECT_EQ(s->diff.count(Verdict::kUnchanged), static_cast<int>(s->diff.nodes.size()));
  DiffTableModel model;
  model.setSession(s);
  EXPECT_EQ(model.rowCount(), 0);
}

// One palette: the GUI's verdict colours, the diff graph's and the HTML report's are the core's.
TEST(VerdictPalette, GuiGraphAndHtmlColourAlike) {
  auto session = fixture_session(Variant::kV1, Variant::kV2);
  const std::string html = cli::render_diff_html(*session->diff.engine, {}, {}, "");
  for (int i = 0; i < kVerdictCount; ++i) {
    const auto v = static_cast<Verdict>(i);
    if (v == Verdict::kUnchanged) continue;
    EXPECT_EQ(status_color(v), QColor(QString::fromLatin1(verdict_color(v).text))) << to_string(v);
    EXPECT_NE(html.find(std::string(".v-") + to_string(v) + "{color:" + verdict_color(v).text),
              std::string::npos)
        << to_string(v);
  }
  EXPECT_STREQ(graphs::diff_style(DiffStatus::kVanished).border, verdict_color(Verdict::kVanished).text);
  EXPECT_STREQ(graphs::diff_style(DiffStatus::kNew).border, verdict_color(Verdict::kNew).text);
  EXPECT_EQ(status_color(DiffStatus::kVanished), status_color(Verdict::kVanished));
}

}  // namespace
}  // namespace flopscope::gui::testing
