// #34's GUI defects, each held: names cut in the middle so layer numbers stay (elide_to_width), Flame and
// Timeline show run B in diff mode, the status bar says what its data-quality count is, and View > Ranks
// only exists for a distributed run.
#include <gtest/gtest.h>

#include <QComboBox>
#include <QMenuBar>
#include <QSet>
#include <QTest>
#include <cstdio>

#include "analyzer/format.h"
#include "graphs/render.h"
#include "gui/models/elide_text.h"
#include "gui/views/flame_page.h"
#include "gui/views/graph_items.h"
#include "gui/views/graph_page.h"
#include "gui/views/heatmap_page.h"
#include "gui/views/main_window.h"
#include "gui/views/timeline_page.h"
#include "gui/views/timeline_widget.h"
#include "tests/unit/gui/qt_environment.h"

namespace flopscope::gui::testing {
namespace {

TEST(Round2Views, ElisionKeepsTheLayerNumbers) {
  const QFont font;
  const QFontMetrics fm(font);
  QSet<QString> shown;
  const int width = fm.horizontalAdvance(QStringLiteral("Owlv2EncoderLay"));
  for (int layer = 0; layer < 24; ++layer) {
    const QString name = QStringLiteral("Owlv2EncoderLayer_%1").arg(layer);
    const QString cut = elide_to_width(name, fm, width);
    EXPECT_LE(fm.horizontalAdvance(cut), width) << cut.toStdString();
    EXPECT_TRUE(cut.endsWith(QStringLiteral("_%1").arg(layer))) << cut.toStdString();
    EXPECT_TRUE(cut.startsWith(QStringLiteral("Owl"))) << cut.toStdString();
    // The core's cut, at as many characters as fit.
    EXPECT_EQ(cut.toStdString(), elide_middle(name.toStdString(), static_cast<std::size_t>(cut.size())));
    shown.insert(cut);
  }
  EXPECT_EQ(shown.size(), 24);  // every layer reads differently
  EXPECT_EQ(elide_to_width(QStringLiteral("short"), fm, 1000), QStringLiteral("short"));
  EXPECT_EQ(elide_to_width(QStringLiteral("Owlv2EncoderLayer_3"), fm, 2), QString());
}

TEST(Round2Views, FlameAndTimelineShowRunBInDiffMode) {
  SessionPtr session = fixture_session(Variant::kV1, Variant::kV2);
  FlamePage flame;
  flame.setSession(session);
  ASSERT_FALSE(flame.runSelector()->isHidden());
  const auto cells_a = flame.flameWidget()->icicle().cells.size();
  EXPECT_EQ(cells_a, session->a->analysis.flame({})->cells.size());
  flame.runSelector()->setCurrentIndex(1);
  EXPECT_EQ(flame.flameWidget()->icicle().cells.size(), session->b->analysis.flame({})->cells.size());
  EXPECT_NE(flame.flameWidget()->icicle().cells.size(), cells_a);  // v2 lost the bias modules

  TimelinePage timeline;
  timeline.setSession(session);
  ASSERT_FALSE(timeline.runSelector()->isHidden());
  EXPECT_EQ(&timeline.timeline()->timelineIndex(), *session->a->analysis.timeline());
  timeline.runSelector()->setCurrentIndex(1);
  EXPECT_EQ(&timeline.timeline()->timelineIndex(), *session->b->analysis.timeline());

  // One run: no switch.
  flame.setSession(fixture_session(Variant::kV1));
  EXPECT_TRUE(flame.runSelector()->isHidden());
}

TEST(Round2Views, HeatmapOfOneIterationSaysItHasNoSpreadToColour) {
  HeatmapPage page;
  FixtureOptions one;
  one.iterations = 1;
  page.setSession(make_session(make_loaded_run(QStringLiteral("one.db"), sonnet_run(one)), nullptr));
  EXPECT_TRUE(page.noteText().startsWith(QStringLiteral("1 iteration: too few")))
      << page.noteText().toStdString();
  // The legend in units, the same words `flopscope heatmap` writes under its picture.
  const HeatmapData& shown = page.heatmapWidget()->heatmap();
  EXPECT_EQ(page.legendText().toStdString(), heatmap_legend(shown));
  EXPECT_TRUE(page.legendText().contains(QString::fromStdString(time_text(shown.min_ns))));
  EXPECT_TRUE(page.legendText().contains(QString::fromStdString(time_text(shown.max_ns))));
  EXPECT_TRUE(page.legendText().contains(QStringLiteral(" self time per iteration, logarithmic from ")))
      << page.legendText().toStdString();
  page.setSession(fixture_session(Variant::kV1));  // 12 iterations: colours across them mean something
  EXPECT_EQ(page.noteText(), QString());
  EXPECT_FALSE(page.legendText().isEmpty());
}

TEST(Round2Views, DiffGraphLabelsInsideNodesFitKeepsReadableZoomCollapseRefits) {
  if (!graphs::graphviz_rendering_available()) GTEST_SKIP() << "the Graph tab needs Graphviz for its layout";
  GraphPage page;
  page.resize(1366, 500);
  page.setSession(fixture_session(Variant::kV1, Variant::kV2));
  page.show();
  ASSERT_TRUE(QTest::qWaitForWindowExposed(&page));
  page.expandAll();
  int removed = 0;
  for (const GraphNodeItem* node : page.nodeItems()) {
    removed += node->label().contains(QStringLiteral("VANISHED"));
    EXPECT_TRUE(node->nodeRect().contains(node->labelRect()))
        << node->label().toStdString() << ": label " << node->labelRect().width() << "x"
        << node->labelRect().height() << " in node " << node->nodeRect().width() << "x"
        << node->nodeRect().height();
  }
  EXPECT_GT(removed, 0);
  EXPECT_TRUE(page.infoText().contains(QStringLiteral("Costs on nodes are run B's")))
      << page.infoText().toStdString();
  // The expanded graph is far taller than the view: Fit stops at a zoom that still reads.
  page.fit();
  EXPECT_GE(page.view()->transform().m11(), GraphPage::kMinReadableZoom - 1e-9);
  std::printf("fit zoom on the expanded diff graph: %.2f\n", page.view()->transform().m11());
}

// The View menu's action for a view, or null.
QAction* view_action(MainWindow& w, const QString& name) {
  for (QAction* menu : w.menuBar()->actions())
    if (menu->menu())
      for (QAction* a : menu->menu()->actions())
        if (a->data().toString() == name) return a;
  return nullptr;
}

TEST(Round2Views, StatusBarSaysWhatTheQualityCountIsAndRanksOnlyForRanks) {
  MainWindow w;
  // The v1 fixture run's quality rows (ops_without_flops_formula and what the analysis adds): warnings only.
  SessionPtr session = fixture_session(Variant::kV1);
  w.setSession(session);
  long long warnings = 0;
  for (const auto& qi : session->a->summary.quality) {
    ASSERT_NE(qi.severity, Severity::kError);
    if (qi.severity == Severity::kWarning) warnings += qi.count;
  }
  ASSERT_GT(warnings, 1);
  EXPECT_EQ(w.qualityText(),
            QStringLiteral("data quality: 0 errors, %1 warnings (View \u203a Data quality)").arg(warnings));
  EXPECT_TRUE(w.qualityList().contains(QStringLiteral("ops_without_flops_formula")))
      << w.qualityList().toStdString();
  std::printf("status bar: %s\n", qPrintable(w.qualityText()));
  QAction* ranks = view_action(w, QStringLiteral("ranks"));
  ASSERT_NE(ranks, nullptr);
  EXPECT_FALSE(ranks->isVisible());
  QAction* flame = view_action(w, QStringLiteral("flame"));
  ASSERT_NE(flame, nullptr);
  EXPECT_TRUE(flame->isVisible());
}

}  // namespace
}  // namespace flopscope::gui::testing
