#include <gtest/gtest.h>

#include <QComboBox>
#include <QLabel>
#include <QLineEdit>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QStatusBar>
#include <QTest>
#include <QTreeView>

#include "graphs/heat.h"
#include "graphs/render.h"
#include "gui/models/module_tree_model.h"
#include "gui/models/roles.h"
#include "gui/views/diff_page.h"
#include "gui/views/flame_page.h"
#include "gui/views/graph_items.h"
#include "gui/views/graph_page.h"
#include "gui/views/main_window.h"
#include "gui/views/module_tree_page.h"
#include "tests/unit/gui/qt_environment.h"

namespace flopscope::gui::testing {
namespace {

TEST(Interaction, SelectingAModuleInTheTreeHighlightsItInTheGraph) {
  if (!graphs::graphviz_rendering_available()) GTEST_SKIP() << "the Graph tab needs Graphviz for its layout";
  MainWindow w;
  w.setSession(fixture_session(Variant::kV1));
  w.show();
  ASSERT_TRUE(QTest::qWaitForWindowExposed(&w));
  w.graphPage()->expandAll();
  EXPECT_EQ(w.graphPage()->highlightedNodeCount(), 0);
  // Type in the filter box and click the module's row, as a user would.
  auto* tree = w.treePage()->treeView();
  QTest::keyClicks(w.treePage()->filterEdit(), QStringLiteral("layers.1.attn.position"));
  QModelIndex row = w.treePage()->proxy()->mapFromSource(
      w.treePage()->model()->indexForPath(QStringLiteral("layers.1.attn.position_adaptive_bias")));
  ASSERT_TRUE(row.isValid());
  tree->scrollTo(row);
  QTest::mouseClick(tree->viewport(), Qt::LeftButton, {}, tree->visualRect(row).center());
  EXPECT_EQ(w.treePage()->selectedPath(), QStringLiteral("layers.1.attn.position_adaptive_bias"));
  EXPECT_EQ(w.graphPage()->highlightedModule(), QStringLiteral("layers.1.attn.position_adaptive_bias"));
  EXPECT_EQ(w.graphPage()->highlightedNodeCount(), 7);  // the module's seven ops
  for (auto* item : w.graphPage()->nodeItems())
    EXPECT_EQ(item->isHighlighted(), item->modulePath() == "layers.1.attn.position_adaptive_bias");
  // The detail pane lists the module's ops and its weight.
  EXPECT_TRUE(w.treePage()->detailsText().contains(QStringLiteral("aten::log1p")));
  EXPECT_TRUE(
      w.treePage()->detailsText().contains(QStringLiteral("layers.1.attn.position_adaptive_bias.weight")));
}

TEST(Interaction, ClickingAGraphNodeSelectsItsModuleInTheTree) {
  if (!graphs::graphviz_rendering_available()) GTEST_SKIP() << "the Graph tab needs Graphviz for its layout";
  MainWindow w;
  w.setSession(fixture_session(Variant::kV1));
  w.graphPage()->expandAll();
  GraphNodeItem* target = nullptr;
  for (auto* item : w.graphPage()->nodeItems())
    if (item->modulePath() == "layers.0.mlp.up") target = item;
  ASSERT_NE(target, nullptr);
  Q_EMIT w.graphPage()->moduleClicked(QString::fromStdString(target->modulePath()));
  EXPECT_EQ(w.treePage()->selectedPath(), QStringLiteral("layers.0.mlp.up"));
}

TEST(Interaction, FlameClickSelectsEverywhereAndDoubleClickZooms) {
  MainWindow w;
  w.resize(1400, 700);
  w.setSession(fixture_session(Variant::kV1));
  w.show();
  ASSERT_TRUE(w.showView(QStringLiteral("flame")));
  ASSERT_TRUE(QTest::qWaitForWindowExposed(&w));
  FlameWidget* flame = w.flamePage()->flameWidget();
  const auto& summary = w.session()->a->summary;
  // The cells are the core's icicle of run A: the same layout `flopscope flame` writes.
  graphs::Icicle expected = graphs::icicle_layout(summary, {graphs::CostMetric::kTime});
  ASSERT_EQ(flame->icicle().cells.size(), expected.cells.size());
  int target = -1;
  for (int i = 0; i < static_cast<int>(expected.cells.size()); ++i)
    if (summary.modules[static_cast<std::size_t>(expected.cells[static_cast<std::size_t>(i)].module)].path ==
        "layers.1")
      target = i;
  ASSERT_GE(target, 0);
  QPoint centre = flame->cellRect(target).center().toPoint();
  QTest::mouseClick(flame, Qt::LeftButton, {}, centre);
  EXPECT_EQ(w.treePage()->selectedPath(), QStringLiteral("layers.1"));
  QTest::mouseDClick(flame, Qt::LeftButton, {}, centre);
  ASSERT_FALSE(flame->icicle().cells.empty());
  EXPECT_EQ(summary.modules[static_cast<std::size_t>(flame->icicle().cells[0].module)].path, "layers.1");
  EXPECT_DOUBLE_EQ(flame->icicle().cells[0].x1, 1.0);
  EXPECT_TRUE(w.flamePage()->zoomTo(QString()));
  EXPECT_EQ(flame->icicle().cells.size(), expected.cells.size());
}

TEST(Interaction, SwitchingColourModeRepaintsTheNodes) {
  if (!graphs::graphviz_rendering_available()) GTEST_SKIP() << "the Graph tab needs Graphviz for its layout";
  GraphPage page;
  page.resize(900, 700);
  page.setSession(fixture_session(Variant::kV1));
  page.expandAll();
  page.setColorMode(GraphPage::ColorMode::kFlops);
  std::vector<QRgb> by_flops;
  for (auto* item : page.nodeItems()) by_flops.push_back(item->fill().rgb());
  QImage before = page.view()->grab().toImage();
  page.setColorMode(GraphPage::ColorMode::kTime);
  int changed = 0;
  for (std::size_t i = 0; i < page.nodeItems().size(); ++i)
    changed += page.nodeItems()[i]->fill().rgb() != by_flops[i];
  EXPECT_GT(changed, 0);  // FLOPs and time rank nodes differently (arange: no FLOPs, some time)
  page.setColorMode(GraphPage::ColorMode::kPlain);
  for (auto* item : page.nodeItems()) EXPECT_EQ(item->fill(), QColor(Qt::white));
  EXPECT_NE(page.view()->grab().toImage(), before);
}

TEST(Interaction, CollapsingAClusterRebuildsTheGraph) {
  if (!graphs::graphviz_rendering_available()) GTEST_SKIP() << "the Graph tab needs Graphviz for its layout";
  GraphPage page;
  page.setSession(fixture_session(Variant::kV1));
  page.expandAll();
  const std::size_t expanded = page.nodeItems().size();
  page.toggleCluster("layers.0");
  EXPECT_LT(page.nodeItems().size(), expanded);
  page.toggleCluster("layers.0");
  EXPECT_EQ(page.nodeItems().size(), expanded);
}

TEST(Interaction, ClickingAClusterHeaderCollapsesItAndDoubleClickingTheBoxExpandsIt) {
  if (!graphs::graphviz_rendering_available()) GTEST_SKIP() << "the Graph tab needs Graphviz for its layout";
  GraphPage page;
  page.resize(1200, 900);
  page.setSession(fixture_session(Variant::kV1));
  page.expandAll();
  page.show();
  ASSERT_TRUE(QTest::qWaitForWindowExposed(&page));
  const std::size_t expanded = page.nodeItems().size();
  const graphs::LaidOutCluster* attn = nullptr;
  for (const auto& c : page.layout().clusters)
    if (c.module_path == "layers.0.attn") attn = &c;
  ASSERT_NE(attn, nullptr);
  // The header is the band of the cluster's label, where Graphviz put it.
  const QPointF header(attn->label_box.x + attn->label_box.width / 2,
                       attn->label_box.y + attn->label_box.height / 2);
  page.view()->centerOn(header);
  QTest::mouseClick(page.view()->viewport(), Qt::LeftButton, {}, page.view()->mapFromScene(header));
  QTest::qWait(20);  // the page queues the rebuild
  ASSERT_EQ(page.collapsedModules(), (std::set<std::string>{"layers.0.attn"}));
  EXPECT_LT(page.nodeItems().size(), expanded);
  GraphNodeItem* box = nullptr;
  for (auto* item : page.nodeItems())
    if (item->modulePath() == "layers.0.attn") box = item;
  ASSERT_NE(box, nullptr);
  const QPointF centre = box->boundingRect().center();
  page.view()->centerOn(centre);
  QTest::mouseDClick(page.view()->viewport(), Qt::LeftButton, {}, page.view()->mapFromScene(centre));
  QTest::qWait(20);
  EXPECT_TRUE(page.collapsedModules().empty());
  EXPECT_EQ(page.nodeItems().size(), expanded);
}

TEST(Interaction, DiffSessionOpensOnTheDiffAndColoursVanishedNodesRed) {
  if (!graphs::graphviz_rendering_available()) GTEST_SKIP() << "the Graph tab needs Graphviz for its layout";
  MainWindow w;
  w.setSession(fixture_session(Variant::kV1, Variant::kV2));
  EXPECT_EQ(w.currentView(), static_cast<QWidget*>(w.diffPage()));
  EXPECT_EQ(w.graphPage()->colorMode(), GraphPage::ColorMode::kDiff);
  w.graphPage()->expandAll();
  // The removed ops in the DOT writer's diff palette (graphs/heat), as `flopscope graph --diff` draws them.
  const auto removed = graphs::diff_style(DiffStatus::kVanished);
  int red = 0;
  for (auto* item : w.graphPage()->nodeItems()) {
    const bool bias = item->modulePath().find("position_adaptive_bias") != std::string::npos;
    EXPECT_EQ(item->fill() == QColor(removed.fill) && item->border() == QColor(removed.border), bias)
        << item->label().toStdString();
    red += bias ? 1 : 0;
  }
  EXPECT_EQ(red, 14);
}

TEST(Interaction, DiffPageEvaluatesTheCiGates) {
  DiffPage page;
  page.setSession(fixture_session(Variant::kV1, Variant::kV2));
  page.setGates(QStringLiteral("*position_adaptive_bias*"), QString(), QString());
  EXPECT_TRUE(page.evaluateGates());
  EXPECT_TRUE(page.gateResults().contains(QStringLiteral("PASS")));
  page.setGates(QString(), QStringLiteral("*q_proj*"), QString());  // still running in B: fails
  EXPECT_FALSE(page.evaluateGates());
  EXPECT_TRUE(page.gateResults().contains(QStringLiteral("FAIL")));
  page.setGates(QString(), QString(), QStringLiteral("time=banana"));
  EXPECT_FALSE(page.evaluateGates());
  // One process a side: the time gate can be neither passed nor failed.
  page.setGates(QString(), QString(), QStringLiteral("time=5%"));
  EXPECT_FALSE(page.evaluateGates());
  EXPECT_TRUE(page.gateResults().contains(QStringLiteral("ERROR")));
  EXPECT_FALSE(page.gateResults().contains(QStringLiteral("FAIL")));
  EXPECT_TRUE(page.gateResults().contains(QStringLiteral("trace --repeat")));
  // A run against itself: nothing vanished, the same gate fails.
  auto a = make_loaded_run(QStringLiteral("v1.db"), sonnet_run({Variant::kV1}));
  page.setSession(make_session(a, a));
  page.setGates(QStringLiteral("*position_adaptive_bias*"), QString(), QString());
  EXPECT_FALSE(page.evaluateGates());
}

TEST(Interaction, RecentFilesRememberOpenedRuns) {
  MainWindow w;
  w.setSession(fixture_session(Variant::kV1, Variant::kV2));
  ASSERT_FALSE(w.recentFiles().isEmpty());
  EXPECT_TRUE(w.recentFiles().first().contains(QStringLiteral("v1.db\t")));
}

TEST(Interaction, StatusBarListsDataQualityByCode) {
  // The v1 fixture run holds one ops_without_flops_formula row (aten::arange), a warning in the catalogue.
  MainWindow w;
  w.setSession(fixture_session(Variant::kV1));
  QString tip;
  for (auto* label : w.statusBar()->findChildren<QLabel*>()) {
    if (label->text().startsWith(QStringLiteral("data quality"))) tip = label->toolTip();
  }
  EXPECT_TRUE(tip.contains(
      QStringLiteral("[warning] ops_without_flops_formula \u00d71: ops without a FLOPs formula")))
      << tip.toStdString();
  EXPECT_TRUE(tip.contains(QStringLiteral("aten::arange"))) << tip.toStdString();
}

}  // namespace
}  // namespace flopscope::gui::testing
