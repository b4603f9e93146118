// Views a user reads at a normal window size: nothing forces the window wider than a screen, the diff
// columns are on screen, and the timeline's times agree with its axis. On the imported H100 Kineto trace
// and the sonnet-mini fixtures.
#include <gtest/gtest.h>

#include <QApplication>
#include <QCheckBox>
#include <QGuiApplication>
#include <QHeaderView>
#include <QKeySequence>
#include <QMenuBar>
#include <QScreen>
#include <QSettings>
#include <QStandardPaths>
#include <QTest>
#include <QTreeView>

#include "gui/models/format.h"
#include "gui/models/module_tree_model.h"
#include "gui/models/roles.h"
#include "gui/models/run_loader.h"
#include "gui/views/graph_items.h"
#include "gui/views/graph_page.h"
#include "gui/views/main_window.h"
#include "gui/views/module_tree_page.h"
#include "gui/views/timeline_page.h"
#include "gui/views/timeline_widget.h"
#include "tests/unit/gui/qt_environment.h"

namespace flopscope::gui::testing {
namespace {

const QString kH100Trace = QStringLiteral(
    FLOPSCOPE_SOURCE_DIR "/tests/data/kineto/tracelens__h100__gaunernst_bert-small-uncased__1016001.json.gz");

SessionPtr h100_session() {
  auto session = load_session({kH100Trace});
  EXPECT_TRUE(session.ok()) << session.status().message();
  return session.ok() ? *session : nullptr;
}

// The Graph tab of an imported trace draws the trace's ops and kernels, and its message line wraps: the
// message naming the file (when traces had no graph) used to set the window's minimum width to 1946-1999 px.
TEST(ViewLayout, GraphMessageDoesNotWidenTheWindow) {
  auto session = h100_session();
  ASSERT_TRUE(session);
  MainWindow w;
  w.resize(1400, 900);
  w.setSession(session);
  ASSERT_TRUE(w.showView(QStringLiteral("graph")));
  w.show();
  ASSERT_TRUE(QTest::qWaitForWindowExposed(&w));
  EXPECT_FALSE(w.graphPage()->nodeItems().empty()) << w.graphPage()->message().toStdString();
  // The trace's modules run down a diagonal wider than the window: the tab opens on nodes (the top left,
  // where the graph starts), not on the empty middle of a frame.
  auto* view = w.graphPage()->view();
  const QRectF visible = view->mapToScene(view->viewport()->rect()).boundingRect();
  std::size_t shown = 0;
  for (auto* item : w.graphPage()->nodeItems())
    shown += visible.intersects(item->sceneBoundingRect()) ? 1 : 0;
  EXPECT_GT(shown, 0u);
  EXPECT_LT(w.graphPage()->minimumSizeHint().width(), 1200);
  EXPECT_LT(w.minimumSizeHint().width(), 1200);
}

// In diff mode the tree's Status and delta columns sit next to the module name, on screen at 1400 px.
TEST(ViewLayout, DiffColumnsVisibleAt1400) {
  MainWindow w;
  w.resize(1400, 900);
  w.setSession(fixture_session(Variant::kV1, Variant::kV2));
  ASSERT_TRUE(w.showView(QStringLiteral("tree")));
  w.show();
  ASSERT_TRUE(QTest::qWaitForWindowExposed(&w));
  QApplication::processEvents();
  QTreeView* tree = w.treePage()->treeView();
  QHeaderView* header = tree->header();
  EXPECT_EQ(header->visualIndex(ModuleTreeModel::kStatus), 1);
  for (int c : {ModuleTreeModel::kStatus, ModuleTreeModel::kDeltaTime, ModuleTreeModel::kDeltaFlops}) {
    EXPECT_GE(header->sectionViewportPosition(c), 0) << c;
    EXPECT_LE(header->sectionViewportPosition(c) + header->sectionSize(c), tree->viewport()->width()) << c;
  }
  // One run: the model's own column order again.
  w.setSession(fixture_session(Variant::kV1));
  EXPECT_EQ(header->visualIndex(ModuleTreeModel::kType), ModuleTreeModel::kType);
}

// The tooltip's "at" time and the axis count from the same zero (they were 219 µs apart on this trace).
TEST(ViewLayout, TimelineTooltipAndAxisShareTheirZero) {
  auto session = h100_session();
  ASSERT_TRUE(session);
  const auto& tl = session->timeline();
  ASSERT_FALSE(tl.lanes().empty());
  ASSERT_NE(tl.begin(), 0) << "a trace whose first event is at the run's start cannot tell the zeros apart";
  TimelineWidget widget;
  widget.resize(1200, 600);
  widget.setSession(session);
  EXPECT_EQ(widget.timeOrigin(), tl.begin());
  const auto& lane = tl.lanes()[0];
  ASSERT_FALSE(lane.events.empty());
  const TimelineEvent& ev = lane.events[lane.events.size() / 2];
  widget.setRange(ev.start - ev.duration, ev.start + 2 * ev.duration + 10);
  const QRect r = widget.laneRect(0);
  // The event fills the middle third of the plot.
  const QString tip = widget.tooltipAt(QPoint(r.left() + r.width() / 2, r.center().y()));
  ASSERT_FALSE(tip.isEmpty());
  EXPECT_TRUE(tip.contains(QStringLiteral(" at ") +
                           QString::fromStdString(format_ns(static_cast<double>(ev.start - tl.begin())))))
      << tip.toStdString();
}

// Diff mode opens on the change: expanded down to the vanished modules, the first selected, UNCHANGED
// rows hidden until "Show unchanged modules" is checked.
TEST(ViewLayout, DiffTreeOpensOnTheChange) {
  MainWindow w;
  w.resize(1400, 900);
  w.setSession(fixture_session(Variant::kV1, Variant::kV2));
  QTreeView* tree = w.treePage()->treeView();
  EXPECT_EQ(w.treePage()->selectedPath(), QStringLiteral("layers.0.attn.position_adaptive_bias"));
  EXPECT_TRUE(tree->isExpanded(tree->currentIndex().parent()));
  auto count = [&](auto&& self, const QModelIndex& parent, int* unchanged) -> int {
    int n = 0;
    for (int r = 0; r < tree->model()->rowCount(parent); ++r) {
      QModelIndex i = tree->model()->index(r, 0, parent);
      *unchanged += i.data(kStatusRole).toInt() == static_cast<int>(Verdict::kUnchanged) ? 1 : 0;
      n += 1 + self(self, i, unchanged);
    }
    return n;
  };
  int unchanged = 0;
  const int shown = count(count, {}, &unchanged);
  EXPECT_EQ(unchanged, 0);
  ASSERT_FALSE(w.treePage()->showUnchangedBox()->isHidden());
  w.treePage()->showUnchangedBox()->setChecked(true);
  unchanged = 0;
  EXPECT_GT(count(count, {}, &unchanged), shown);
  EXPECT_GT(unchanged, 0);
  EXPECT_EQ(w.treePage()->selectedPath(), QStringLiteral("layers.0.attn.position_adaptive_bias"));
  // One run: nothing hidden, no box.
  w.setSession(fixture_session(Variant::kV1));
  EXPECT_TRUE(w.treePage()->showUnchangedBox()->isHidden());
  unchanged = 0;
  EXPECT_GT(count(count, {}, &unchanged), shown);
}

// The Help menu lists every shortcut from the actions themselves, so it cannot go stale.
TEST(ViewLayout, HelpListsTheMenuShortcuts) {
  MainWindow w;
  const QString text = w.shortcutsText();
  EXPECT_TRUE(text.contains(QKeySequence(QKeySequence::Open).toString(QKeySequence::NativeText)))
      << text.toStdString();
  EXPECT_TRUE(text.contains(QStringLiteral("Open"))) << text.toStdString();
  for (int i = 1; i <= 6; ++i)
    EXPECT_TRUE(text.contains(QStringLiteral("Ctrl+%1").arg(i))) << text.toStdString();
  bool help = false;
  for (QAction* menu : w.menuBar()->actions())
    help = help || menu->text().remove(QLatin1Char('&')) == QStringLiteral("Help");
  EXPECT_TRUE(help);
}

// The window comes back at the size it was closed with (settings in Qt's test location, not the user's).
TEST(ViewLayout, WindowGeometryIsRemembered) {
  QStandardPaths::setTestModeEnabled(true);
  {
    MainWindow w;
    w.resize(1111, 777);
    w.show();
    w.close();
  }
  MainWindow again;
  // The first size fits the screen's room (offscreen: 800x600), a 1366x768 laptop included.
  EXPECT_EQ(again.size(),
            MainWindow::initialSize(QGuiApplication::primaryScreen()->availableGeometry().size()));
  EXPECT_EQ(MainWindow::initialSize(QSize(1920, 1040)), QSize(1400, 900));
  const QSize laptop = MainWindow::initialSize(QSize(1366, 738));  // 768 less a 30-pixel panel
  EXPECT_LE(laptop.width(), 1366 - 40);
  EXPECT_LE(laptop.height(), 738 - 40);
  again.restoreWindowState();
  EXPECT_EQ(again.size(), QSize(1111, 777));
  QSettings().clear();
  QStandardPaths::setTestModeEnabled(false);
}

}  // namespace
}  // namespace flopscope::gui::testing
