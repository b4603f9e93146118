// The Latency heatmap page: the colour bar's ticks, few-iteration runs, diff mode (A and B on one scale,
// one selection) and the exports (PNG, SVG, CSV of the matrix).
#include "gui/views/heatmap_page.h"

#include <gtest/gtest.h>

#include <QFile>
#include <QImage>
#include <QPainter>
#include <QSvgRenderer>

#include "gui/models/heatmap_painter.h"
#include "tests/unit/gui/qt_environment.h"

namespace flopscope::gui::testing {
namespace {

SessionPtr session_of_iterations(int iterations) {
  FixtureOptions o;
  o.iterations = iterations;
  return make_session(make_loaded_run(QStringLiteral("few.db"), sonnet_run(o)), nullptr);
}

int pixels_of(const QImage& image, const QRect& r, QRgb colour) {
  int n = 0;
  for (int y = std::max(0, r.top()); y <= std::min(image.height() - 1, r.bottom()); ++y)
    for (int x = std::max(0, r.left()); x <= std::min(image.width() - 1, r.right()); ++x)
      n += image.pixel(x, y) == colour ? 1 : 0;
  return n;
}

TEST(HeatmapPage, ColourBarHasATickMarkAtEveryRoundValue) {
  auto session = fixture_session(Variant::kV1);
  HeatmapData data = heatmap_data(session->a->summary, 10);
  HeatmapPaintOptions options;
  options.font = QFont();
  const QSize size(1200, 800);
  QImage image = render_heatmap_image(data, size, options).convertToFormat(QImage::Format_RGB32);
  auto g = HeatmapGeometry::compute(data, size, options.font);
  const auto ticks = heatmap_ticks(data);
  ASSERT_GE(ticks.size(), 2u);
  for (double v : ticks) {
    const int y = g.legend.bottom() - static_cast<int>(std::lround(data.scale(v) * (g.legend.height() - 1)));
    EXPECT_LT(qGray(image.pixel(g.legend.right() + 2, y)), 100) << "no tick mark at " << v << " ns";
  }
  EXPECT_EQ(heatmap_measure(data, options), QStringLiteral("device self time"));  // the fixture has kernels
}

// One iteration: no histogram bars (one value is not a distribution), narrow cells; twelve: bars.
TEST(HeatmapPage, FewIterationsShowValuesNotADistribution) {
  const QRgb bar = QColor(59, 82, 139).rgb();
  HeatmapPaintOptions options;
  options.font = QFont();
  const QSize size(1200, 800);
  for (int iterations : {1, 12}) {
    HeatmapData data = heatmap_data(session_of_iterations(iterations)->a->summary, 8);
    ASSERT_EQ(data.iterations, iterations);
    auto g = HeatmapGeometry::compute(data, size, options.font);
    EXPECT_LE(g.cell_w, kMaxHeatmapCellWidth);
    QImage image = render_heatmap_image(data, size, options).convertToFormat(QImage::Format_RGB32);
    const int bars = pixels_of(image, g.histogram, bar);
    if (iterations == 1)
      EXPECT_EQ(bars, 0);
    else
      EXPECT_GT(bars, 100);
  }
}

TEST(HeatmapPage, DiffShowsBothRunsOnOneScaleAndSelectsInBoth) {
  HeatmapPage page;
  page.resize(1600, 900);
  page.setSession(fixture_session(Variant::kV1, Variant::kV2));
  const HeatmapData& a = page.heatmapWidget()->heatmap();
  const HeatmapData& b = page.heatmapWidgetB()->heatmap();
  EXPECT_FALSE(page.heatmapWidgetB()->isHidden());
  ASSERT_EQ(a.rows.size(), b.rows.size());
  for (std::size_t i = 0; i < a.rows.size(); ++i) EXPECT_EQ(a.rows[i].path, b.rows[i].path);
  EXPECT_DOUBLE_EQ(a.min_ns, b.min_ns);
  EXPECT_DOUBLE_EQ(a.max_ns, b.max_ns);
  // The vanished bias has an empty row in B.
  int bias = -1;
  for (std::size_t i = 0; i < a.rows.size(); ++i)
    if (a.rows[i].path == "layers.0.attn.position_adaptive_bias") bias = static_cast<int>(i);
  ASSERT_GE(bias, 0);
  EXPECT_TRUE(b.rows[static_cast<std::size_t>(bias)].stats.values.entries().empty());
  page.heatmapWidget()->setSelectedRow(bias);
  EXPECT_EQ(page.heatmapWidgetB()->selectedRow(), bias);
  // One run again: B hidden.
  page.setSession(fixture_session(Variant::kV1));
  EXPECT_TRUE(page.heatmapWidgetB()->isHidden());
}

TEST(HeatmapPage, ExportsPngSvgAndTheMatrixAsCsv) {
  HeatmapPage page;
  page.setSession(fixture_session(Variant::kV1, Variant::kV2));
  const QString dir = output_dir(QStringLiteral("heatmap_export"));
  ASSERT_TRUE(page.exportTo(dir + QStringLiteral("/h.csv")).ok());
  QFile csv(dir + QStringLiteral("/h.csv"));
  ASSERT_TRUE(csv.open(QIODevice::ReadOnly));
  const QStringList lines = QString::fromUtf8(csv.readAll()).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
  ASSERT_FALSE(lines.isEmpty());
  EXPECT_TRUE(lines[0].startsWith(QStringLiteral("run,module,clock,iter_0,"))) << lines[0].toStdString();
  EXPECT_EQ(lines.size(), 1 + 2 * static_cast<int>(page.heatmapWidget()->heatmap().rows.size()));
  EXPECT_EQ(lines[0].count(QLatin1Char(',')), 2 + 12);
  ASSERT_TRUE(page.exportTo(dir + QStringLiteral("/h.png")).ok());
  QImage png(dir + QStringLiteral("/h.png"));
  EXPECT_EQ(png.width(), 1800);  // A and B side by side
  EXPECT_GT(distinct_colors(png), 30);
  ASSERT_TRUE(page.exportTo(dir + QStringLiteral("/h.svg")).ok());
  QSvgRenderer svg(dir + QStringLiteral("/h.svg"));
  EXPECT_TRUE(svg.isValid());
  EXPECT_FALSE(page.exportTo(dir + QStringLiteral("/h.bmp")).ok());
}

}  // namespace
}  // namespace flopscope::gui::testing
