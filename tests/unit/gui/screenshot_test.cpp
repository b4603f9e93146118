// Every view rendered from fixture runs: the pictures are not blank and show what a user expects.
#include <gtest/gtest.h>

#include <QApplication>
#include <QTest>
#include <QTreeView>

#include "graphs/render.h"
#include "gui/models/diff_table_model.h"
#include "gui/models/heatmap_model.h"
#include "gui/models/module_tree_model.h"
#include "gui/models/roles.h"
#include "gui/views/diff_page.h"
#include "gui/views/export.h"
#include "gui/views/graph_page.h"
#include "gui/views/heatmap_page.h"
#include "gui/views/main_window.h"
#include "gui/views/module_tree_page.h"
#include "gui/views/timeline_page.h"
#include "gui/views/timeline_widget.h"
#include "tests/unit/gui/qt_environment.h"

namespace flopscope::gui::testing {
namespace {

QImage shoot(MainWindow& w, const char* view, const QString& dir) {
  EXPECT_TRUE(w.showView(QString::fromLatin1(view)));
  QApplication::processEvents();
  QImage image = w.grab().toImage();
  EXPECT_TRUE(save_image(image, dir + QLatin1Char('/') + QLatin1String(view) + QStringLiteral(".png")).ok());
  return image;
}

TEST(Screenshots, EveryViewOfOneRun) {
  const QString dir = output_dir(QStringLiteral("single"));
  MainWindow w;
  w.resize(1400, 900);
  w.setSession(fixture_session(Variant::kV1));
  w.show();
  ASSERT_TRUE(QTest::qWaitForWindowExposed(&w));
  for (const char* view : {"tree", "graph", "heatmap", "timeline"}) {
    QImage image = shoot(w, view, dir);
    EXPECT_EQ(image.size(), w.size() * w.devicePixelRatio());
    EXPECT_GT(distinct_colors(image), 20) << view;
  }
  // What the pictures show, read from the widgets rather than by OCR.
  auto* tree = w.treePage()->treeView();
  EXPECT_TRUE(tree->isExpanded(tree->model()->index(0, 0)));
  QModelIndex layers = tree->model()->index(0, 0);
  QStringList top;
  for (int r = 0; r < tree->model()->rowCount(layers); ++r)
    top << tree->model()->index(r, 0, layers).data().toString();
  EXPECT_EQ(top, (QStringList{QStringLiteral("embed"), QStringLiteral("layers"), QStringLiteral("ln_f"),
                              QStringLiteral("lm_head")}));
  const auto& heat = w.heatmapPage()->heatmapWidget()->heatmap();
  ASSERT_GE(heat.rows.size(), 5u);
  bool bias_in_top5 = false;
  for (std::size_t i = 0; i < 5; ++i)
    bias_in_top5 |= heat.rows[i].path.find("position_adaptive_bias") != std::string::npos;
  EXPECT_TRUE(bias_in_top5);  // its O(N^2) work makes it one of the slowest modules
  EXPECT_GT(w.timelinePage()->timeline()->lastPaintedSpans(), 10u);
  // Without Graphviz the Graph tab has no layout and says so (graph_same_picture_test).
  if (graphs::graphviz_rendering_available()) {
    EXPECT_GT(w.graphPage()->nodeItems().size(), 5u);
  }
}

TEST(Screenshots, DiffViews) {
  const QString dir = output_dir(QStringLiteral("diff"));
  MainWindow w;
  w.resize(1400, 900);
  w.setSession(fixture_session(Variant::kV1, Variant::kV2));
  w.show();
  ASSERT_TRUE(QTest::qWaitForWindowExposed(&w));
  const bool graph = graphs::graphviz_rendering_available();  // else the Graph tab is one line of text
  for (const char* view : {"diff", "tree", "graph"}) {
    if (graph || QLatin1String(view) != QLatin1String("graph")) {
      EXPECT_GT(distinct_colors(shoot(w, view, dir)), 20) << view;
    }
  }
  EXPECT_TRUE(w.diffPage()->headline().contains(QStringLiteral("2 VANISHED")));
  EXPECT_EQ(w.diffPage()->model()->index(0, DiffTableModel::kModule).data().toString(),
            QStringLiteral("layers.0.attn.position_adaptive_bias"));
  // Graph export in all three formats.
  for (const char* ext : {"pdf", "svg", "png"}) {
    QString path = dir + QStringLiteral("/graph.") + QLatin1String(ext);
    ASSERT_TRUE(w.graphPage()->exportTo(path).ok()) << ext;
    QFile f(path);
    ASSERT_TRUE(f.open(QIODevice::ReadOnly));
    QByteArray head = f.read(8);
    if (QLatin1String(ext) == QLatin1String("pdf")) {
      EXPECT_TRUE(head.startsWith("%PDF"));
    } else if (QLatin1String(ext) == QLatin1String("png")) {
      EXPECT_TRUE(head.startsWith("\x89PNG"));
    }
  }
  QFile svg(dir + QStringLiteral("/graph.svg"));
  ASSERT_TRUE(svg.open(QIODevice::ReadOnly));
  const QByteArray text = svg.readAll();
  EXPECT_TRUE(text.contains("<svg"));
  if (graph) {
    EXPECT_TRUE(text.contains("stroke-dasharray") || text.contains("stroke-dash"))
        << "vanished nodes are dashed";
  }
  EXPECT_FALSE(w.graphPage()->exportTo(dir + QStringLiteral("/graph.bmp")).ok());
}

}  // namespace
}  // namespace flopscope::gui::testing
