// The Graph tab in diff mode: it opens on what changed at a legible zoom, marks DORMANT modules, explains
// its colours and dash styles in the legend, and exports a graph larger than a page as several pages.
#include <gtest/gtest.h>

#include <QFile>
#include <QGraphicsView>
#include <QRegularExpression>
#include <QTest>

#include "graphs/render.h"
#include "gui/views/graph_items.h"
#include "gui/views/graph_page.h"
#include "gui/views/main_window.h"
#include "tests/unit/gui/qt_environment.h"

namespace flopscope::gui::testing {
namespace {

TEST(GraphPageDiff, OpensOnTheChangesAtALegibleZoom) {
  if (!graphs::graphviz_rendering_available()) GTEST_SKIP() << "built without Graphviz";
  MainWindow w;
  w.resize(1400, 900);
  w.setSession(fixture_session(Variant::kV1, Variant::kV2));
  ASSERT_TRUE(w.showView(QStringLiteral("graph")));
  w.show();
  ASSERT_TRUE(QTest::qWaitForWindowExposed(&w));
  QTest::qWait(50);  // the queued zoom after the first show
  GraphPage* page = w.graphPage();
  const double zoom = page->view()->transform().m11();
  EXPECT_GE(zoom, 1.0);
  EXPECT_LE(zoom, 1.5);
  const QRectF visible = page->view()->mapToScene(page->view()->viewport()->rect()).boundingRect();
  int changed_visible = 0;
  for (std::size_t i = 0; i < page->nodeItems().size(); ++i)
    if (page->viewGraph().nodes[i].diff != DiffStatus::kUnchanged &&
        visible.intersects(page->nodeItems()[i]->sceneBoundingRect()))
      ++changed_visible;
  EXPECT_GT(changed_visible, 0) << "no changed node on screen at " << zoom;
}

TEST(GraphPageDiff, DormantModulesAreMarkedAndTheLegendExplainsStyles) {
  if (!graphs::graphviz_rendering_available()) GTEST_SKIP() << "built without Graphviz";
  auto session = fixture_session(Variant::kV1, Variant::kV2z);
  EXPECT_TRUE(session->graph.dormant_modules.count("layers.0.attn.position_adaptive_bias"));
  GraphPage page;
  page.resize(1400, 900);
  page.setSession(session);
  page.expandAll();  // the bias's own frame, not the layer's collapsed box
  const std::string dot = graphs::write_dot(page.viewGraph(), page.dotOptions());
  EXPECT_NE(dot.find("position_adaptive_bias (PositionAdaptiveBias) DORMANT"), std::string::npos)
      << "no DORMANT label";
  EXPECT_NE(dot.find("dotted"), std::string::npos);
  const std::string& legend = page.layout().legend_html;
  EXPECT_NE(legend.find("DORMANT"), std::string::npos);
  EXPECT_NE(legend.find("dashed"), std::string::npos);
  // The v1 -> v2 diff has no dormant module: no dormant line in its legend.
  page.setSession(fixture_session(Variant::kV1, Variant::kV2));
  EXPECT_EQ(page.layout().legend_html.find("DORMANT"), std::string::npos);
}

int pdf_pages(const QString& path) {
  QFile f(path);
  if (!f.open(QIODevice::ReadOnly)) return -1;
  return static_cast<int>(
      QString::fromLatin1(f.readAll()).count(QRegularExpression(QStringLiteral("/Type\\s*/Page[^s]"))));
}

TEST(GraphPageDiff, LargeGraphPdfHasAnOverviewAndTiles) {
  if (!graphs::graphviz_rendering_available()) GTEST_SKIP() << "built without Graphviz";
  FixtureOptions o;
  o.layers = 6;
  GraphPage page;
  page.setSession(make_session(make_loaded_run(QStringLiteral("big.db"), sonnet_run(o)), nullptr));
  page.expandAll();
  const QRectF source = page.scene()->itemsBoundingRect().adjusted(-20, -20, 20, 20);
  const QSizeF a3(1191, 842);
  ASSERT_TRUE(source.width() > a3.width() || source.height() > a3.height()) << "the graph fits one page";
  const QString dir = output_dir(QStringLiteral("graph_pdf"));
  ASSERT_TRUE(page.exportTo(dir + QStringLiteral("/big.pdf")).ok());
  const int tiles =
      static_cast<int>(std::ceil(source.width() / a3.width()) * std::ceil(source.height() / a3.height()));
  const int pages = pdf_pages(dir + QStringLiteral("/big.pdf"));
  if (tiles <= 64)
    EXPECT_EQ(pages, 1 + tiles);  // the overview, then the tiles at 100%
  else
    EXPECT_LE(pages, 65);
  EXPECT_GE(pages, 3);
  // A small graph stays one page of its own size.
  page.setSession(fixture_session(Variant::kV1));
  const QRectF small = page.scene()->itemsBoundingRect();
  if (small.width() + 40 <= a3.width() && small.height() + 40 <= a3.height()) {
    ASSERT_TRUE(page.exportTo(dir + QStringLiteral("/small.pdf")).ok());
    EXPECT_EQ(pdf_pages(dir + QStringLiteral("/small.pdf")), 1);
  }
}

}  // namespace
}  // namespace flopscope::gui::testing
