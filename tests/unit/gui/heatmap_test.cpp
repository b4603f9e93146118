#include <gtest/gtest.h>

#include <QAbstractItemModelTester>
#include <QFont>
#include <QFontMetrics>

#include "graphs/heatmap_dot.h"
#include "gui/models/heatmap_model.h"
#include "gui/models/heatmap_painter.h"
#include "gui/models/roles.h"
#include "tests/unit/gui/qt_environment.h"

namespace flopscope::gui::testing {
namespace {

TEST(Heatmap, TopModulesBySelfTimeWithOneColumnPerIteration) {
  auto session = fixture_session(Variant::kV1);
  HeatmapData data = heatmap_data(session->a->summary, 5);
  ASSERT_EQ(data.rows.size(), 5u);
  EXPECT_EQ(data.iterations, 12);
  for (std::size_t i = 1; i < data.rows.size(); ++i)
    EXPECT_GE(data.rows[i - 1].stats.p50, data.rows[i].stats.p50);
  for (const auto& r : data.rows) EXPECT_EQ(r.stats.values.size(), 12u);
  EXPECT_GT(data.max_ns, data.min_ns);
  EXPECT_DOUBLE_EQ(data.scale(data.max_ns), 1.0);
  EXPECT_DOUBLE_EQ(data.scale(data.min_ns), 0.0);

  HeatmapModel model;
  QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
  model.setHeatmap(data);
  EXPECT_EQ(model.rowCount(), 5);
  EXPECT_EQ(model.columnCount(), 12);
  // The fixture's every 7th iteration is slow: iteration 6 is above the row's median.
  QModelIndex slow = model.index(0, 6);
  EXPECT_GT(slow.data(kSortRole).toDouble(), data.rows[0].stats.p50);
  EXPECT_TRUE(slow.data(Qt::ToolTipRole).toString().contains(QStringLiteral("iteration 6")));
  EXPECT_EQ(model.headerData(0, Qt::Vertical).toString(), QString::fromStdString(data.rows[0].path));
}

TEST(Heatmap, RendersWithoutADisplayAndHitTestsCells) {
  auto session = fixture_session(Variant::kV1);
  HeatmapData data = heatmap_data(session->a->summary, 10);
  QFont font;
  HeatmapPaintOptions options;
  options.title = QStringLiteral("test");
  options.font = font;
  QImage image = render_heatmap_image(data, QSize(1200, 800), options);
  ASSERT_FALSE(image.isNull());
  EXPECT_GT(distinct_colors(image), 30);  // cells of many colours, not a blank canvas
  auto g = HeatmapGeometry::compute(data, QSize(1200, 800), font);
  EXPECT_FALSE(g.histogram.isEmpty());
  QPoint centre(g.grid.left() + static_cast<int>(2.5 * g.cell_w),
                g.grid.top() + static_cast<int>(1.5 * g.cell_h));
  EXPECT_EQ(g.cell_at(centre), std::make_pair(1, 2));
  EXPECT_EQ(g.cell_at(QPoint(0, 0)), std::make_pair(-1, -1));
}

// Ink of the first row's label, in the label column around the row.
int label_ink(const HeatmapData& data, const QSize& size, const HeatmapPaintOptions& options) {
  QImage image = render_heatmap_image(data, size, options);
  auto g = HeatmapGeometry::compute(data, size, options.font, false);
  QFontMetrics fm(options.font);
  int ink = 0;
  const int bottom = std::min(image.height(), g.grid.top() + static_cast<int>(g.cell_h) + fm.height());
  for (int y = std::max(0, g.grid.top() - fm.height()); y < bottom; ++y)
    for (int x = 0; x < g.grid.left() - 2; ++x) ink += qGray(image.pixel(x, y)) < 160 ? 1 : 0;
  return ink;
}

// Rows shorter than the text (many modules in a small window) still show whole labels: underscores and
// descenders are not clipped away ("position adaptive bias" for position_adaptive_bias).
TEST(Heatmap, ShortRowsKeepUnderscoresInLabels) {
  using namespace graphs::heatmap_frame;
  HeatmapData data;
  data.iterations = 4;
  data.rows.push_back({"a_b_c_d_e_f_g_h_i_j", latency_stats(std::vector<double>{1e3, 2e3, 3e3, 4e3})});
  data.min_ns = 1e3;
  data.max_ns = 4e3;
  HeatmapPaintOptions options;
  options.font = QFont();
  options.histogram = false;
  options.title = QString();
  QFontMetrics fm(options.font);
  const int frame = kMargin + kTitle + kAxis + kMargin;
  const int tall = label_ink(data, QSize(800, frame + 28), options);
  // The shortest rows that show labels before: four pixels less than the text.
  const QSize short_size(800, frame + fm.height() - 4);
  ASSERT_EQ(static_cast<int>(HeatmapGeometry::compute(data, short_size, options.font, false).cell_h),
            fm.height() - 4);
  const int short_rows = label_ink(data, short_size, options);
  EXPECT_GT(tall, 50);
  EXPECT_GE(short_rows, tall * 95 / 100)
      << "label clipped: " << short_rows << " of " << tall << " dark pixels";
}

}  // namespace
}  // namespace flopscope::gui::testing
