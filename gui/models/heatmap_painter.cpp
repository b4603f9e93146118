#include "gui/models/heatmap_painter.h"

#include <QFontMetrics>
#include <QPainter>
#include <algorithm>
#include <cmath>

#include "graphs/heatmap_dot.h"
#include "gui/models/colors.h"
#include "gui/models/elide_text.h"
#include "gui/models/format.h"

namespace flopscope::gui {

namespace {

using namespace graphs::heatmap_frame;

QString q(const std::string& s) {
  return QString::fromStdString(s);
}

}  // namespace

HeatmapGeometry HeatmapGeometry::compute(const HeatmapData& data, const QSize& size, const QFont& font,
                                         bool with_histogram) {
  HeatmapGeometry g;
  g.rows = static_cast<int>(data.rows.size());
  g.columns = data.iterations;
  QFontMetrics fm(font);
  int label_w = 0;
  for (const auto& r : data.rows) label_w = std::max(label_w, fm.horizontalAdvance(q(r.path)));
  label_w = std::min(label_w + 8, size.width() / 2);
  // The histogram takes the lower third when the window is tall enough.
  int hist_h = with_histogram && size.height() >= 360 ? size.height() / 3 : 0;
  int top = kMargin + kTitle;
  int grid_h = size.height() - top - kAxis - kMargin - hist_h - (hist_h ? kMargin : 0);
  int row_h = g.rows > 0 ? std::clamp(grid_h / g.rows, 4, 28) : 0;
  int grid_w = size.width() - 2 * kMargin - label_w - kLegendWidth;
  if (g.columns > 0) grid_w = std::min(grid_w, g.columns * kMaxHeatmapCellWidth);
  g.grid = QRect(kMargin + label_w, top, grid_w, row_h * g.rows);
  // The colour bar keeps room for its ticks when there are few rows.
  g.legend =
      QRect(g.grid.right() + 16, top, 14, std::max(g.grid.height(), std::min(140, std::max(60, grid_h))));
  // The histogram takes the picture's width: its title names a module path and its x axis is time.
  if (hist_h)
    g.histogram = QRect(
        kMargin, g.grid.bottom() + kAxis + 2 * kMargin,
        std::max(g.grid.right(), std::min(size.width() - 2 * kMargin, g.legend.right() + kLegendWidth)) -
            kMargin,
        size.height() - (g.grid.bottom() + kAxis + 3 * kMargin));
  g.cell_w = g.columns > 0 ? static_cast<double>(g.grid.width()) / g.columns : 0;
  g.cell_h = row_h;
  return g;
}

std::pair<int, int> HeatmapGeometry::cell_at(const QPoint& p) const {
  if (!grid.contains(p) || cell_w <= 0 || cell_h <= 0) return {-1, -1};
  int r = static_cast<int>((p.y() - grid.top()) / cell_h);
  int c = static_cast<int>((p.x() - grid.left()) / cell_w);
  if (r < 0 || r >= rows || c < 0 || c >= columns) return {-1, -1};
  return {r, c};
}

QString heatmap_measure(const HeatmapData& data, const HeatmapPaintOptions& options) {
  if (!options.measure.isEmpty()) return options.measure;
  return QString::fromLatin1(to_string(data.clock)) + QStringLiteral(" self time");
}

namespace {

// The title, bold, elided in the middle to the picture's width.
void paint_title(QPainter& p, const HeatmapGeometry& g, const HeatmapPaintOptions& options) {
  QFont bold = options.font;
  bold.setBold(true);
  p.setFont(bold);
  p.setPen(Qt::black);
  const QRect title_rect(kMargin, kMargin, std::max(g.legend.right() + kLegendWidth - 2 * kMargin, 100),
                         kTitle);
  p.drawText(title_rect, Qt::AlignLeft | Qt::AlignVCenter,
             QFontMetrics(bold).elidedText(options.title, Qt::ElideMiddle, title_rect.width()));
  p.setFont(options.font);
}

// Row labels and cells, the selected row outlined.
void paint_cells(QPainter& p, const HeatmapData& data, const HeatmapGeometry& g,
                 const HeatmapPaintOptions& options) {
  QFontMetrics fm(options.font);
  // A label keeps the font's full height, centred on its row: a rect as short as the row would clip
  // descenders and underscores ("position adaptive bias"). Rows shorter than the text label every k-th
  // row so neighbouring labels do not overlap.
  const int every =
      g.cell_h >= fm.height() ? 1 : static_cast<int>(std::ceil(fm.height() / std::max(g.cell_h, 1.0)));
  // Cells wide and tall enough for their value show it (runs of few iterations).
  const bool values_in_cells =
      g.cell_h >= fm.height() && g.cell_w >= fm.horizontalAdvance(QStringLiteral("999.9 ms")) + 6;
  for (int r = 0; r < g.rows; ++r) {
    const auto& row = data.rows[r];
    int y = g.grid.top() + static_cast<int>(r * g.cell_h);
    QRect label(kMargin, y + static_cast<int>(g.cell_h / 2) - fm.height() / 2, g.grid.left() - kMargin - 6,
                fm.height());
    if (r % every == 0) {
      p.setPen(r == options.selected_row ? QColor(0, 0, 0) : QColor(60, 60, 60));
      p.drawText(label, Qt::AlignRight | Qt::AlignVCenter, elide_to_width(q(row.path), fm, label.width()));
    }
    for (int c = 0; c < g.columns; ++c) {
      double v = data.value(static_cast<std::size_t>(r), static_cast<std::size_t>(c));
      QRectF cell(g.grid.left() + c * g.cell_w, y, std::max(g.cell_w, 1.0), g.cell_h);
      const QColor colour = v > 0 ? heat_color(data.scale(v)) : QColor(235, 235, 235);
      p.fillRect(cell, colour);
      if (values_in_cells && v > 0) {
        p.setPen(qGray(colour.rgb()) < 128 ? Qt::white : Qt::black);
        p.drawText(cell, Qt::AlignCenter, q(format_ns(v)));
      }
    }
  }
  if (options.selected_row >= 0 && options.selected_row < g.rows) {
    p.setPen(QPen(Qt::black, 2));
    p.setBrush(Qt::NoBrush);
    p.drawRect(
        QRectF(g.grid.left(), g.grid.top() + options.selected_row * g.cell_h, g.grid.width(), g.cell_h));
  }
}

// Column axis ticks and the axis name.
void paint_column_axis(QPainter& p, const HeatmapGeometry& g, const HeatmapPaintOptions& options) {
  QFontMetrics fm(options.font);
  // Ticks at round steps (1, 2, 5, 10, ...) that leave room for their labels, each on the
  // middle of its column; the axis name under the row labels, left of the ticks.
  p.setPen(QColor(60, 60, 60));
  const int label_room = fm.horizontalAdvance(QString::number(std::max(g.columns - 1, 0))) + 12;
  int step = 1;
  for (int m : {1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500, 1000, 2000, 5000, 10000}) {
    step = m;
    if (m * g.cell_w >= label_room) break;
  }
  for (int c = 0; c < g.columns; c += step) {
    const int x = g.grid.left() + static_cast<int>((c + 0.5) * g.cell_w);
    const QString tick = c < options.column_labels.size() ? options.column_labels[c] : QString::number(c);
    p.drawLine(x, g.grid.bottom() + 1, x, g.grid.bottom() + 4);
    p.drawText(QRect(x - 40, g.grid.bottom() + 4, 80, kAxis - 4), Qt::AlignHCenter | Qt::AlignTop, tick);
  }
  p.drawText(QRect(kMargin, g.grid.bottom() + 4, g.grid.left() - kMargin - 6, kAxis - 4),
             Qt::AlignRight | Qt::AlignTop, options.column_axis + QStringLiteral(" \u2192"));
}

// The colour bar with its ticks and measure.
void paint_colour_bar(QPainter& p, const HeatmapData& data, const HeatmapGeometry& g, const QFontMetrics& fm,
                      const QString& measure) {
  // Colour bar: log scale from min to max, round ticks with units, its measure below it.
  for (int y = 0; y < g.legend.height(); ++y)
    p.fillRect(QRect(g.legend.left(), g.legend.bottom() - y, g.legend.width(), 1),
               heat_color(static_cast<double>(y) / std::max(1, g.legend.height() - 1)));
  p.setPen(QColor(120, 120, 120));
  p.drawRect(g.legend.adjusted(0, 0, -1, -1));
  p.setPen(Qt::black);
  p.drawText(QRect(g.legend.left() - 8, g.legend.bottom() + 4, kLegendWidth + 8, fm.height()),
             Qt::AlignLeft | Qt::AlignTop, fm.elidedText(measure, Qt::ElideRight, kLegendWidth + 8));
  // The round values, then the ends (the smallest and largest cell, grey), each labelled where it does not
  // crowd a label already drawn.
  std::vector<int> label_ys;
  auto tick = [&](double v, bool end) {
    const int y = g.legend.bottom() - static_cast<int>(std::lround(data.scale(v) * (g.legend.height() - 1)));
    if (!end) p.drawLine(g.legend.right(), y, g.legend.right() + 4, y);
    for (int other : label_ys)
      if (std::abs(y - other) < fm.height()) return;
    p.setPen(end ? QColor(90, 90, 90) : Qt::black);
    p.drawText(QRect(g.legend.right() + 7, y - fm.height() / 2, kLegendWidth - 10, fm.height()),
               Qt::AlignLeft | Qt::AlignVCenter, q(format_ns(v)));
    p.setPen(Qt::black);
    label_ys.push_back(y);
  };
  const auto ticks = heatmap_ticks(data);
  for (double v : ticks) tick(v, false);
  tick(data.max_ns, true);
  tick(data.min_ns, true);
}

}  // namespace

void paint_heatmap(QPainter& p, const HeatmapData& data, const HeatmapGeometry& g,
                   const HeatmapPaintOptions& options) {
  p.save();
  p.setFont(options.font);
  paint_title(p, g, options);
  if (data.rows.empty() || data.iterations == 0) {
    p.drawText(g.grid.adjusted(0, 0, 600, 60), Qt::AlignLeft | Qt::AlignTop, options.empty_text);
    p.restore();
    return;
  }
  paint_cells(p, data, g, options);
  paint_column_axis(p, g, options);
  const QString measure = heatmap_measure(data, options);
  paint_colour_bar(p, data, g, QFontMetrics(options.font), measure);
  if (options.histogram && !g.histogram.isEmpty() && options.selected_row >= 0 &&
      options.selected_row < g.rows)
    paint_histogram(p, g.histogram, data.rows[options.selected_row], options.font, measure);
  p.restore();
}

void paint_histogram(QPainter& p, const QRect& rect, const HeatmapRow& row, const QFont& font,
                     const QString& measure) {
  p.save();
  p.setFont(font);
  QFontMetrics fm(font);
  const auto& values = row.stats.values;
  const int n = row.stats.samples;
  QRect title(rect.left(), rect.top(), rect.width(), fm.height() + 4);
  p.setPen(Qt::black);
  p.drawText(title, Qt::AlignLeft | Qt::AlignVCenter,
             fm.elidedText(QStringLiteral("%1: %2 per iteration, n = %3 iteration%4")
                               .arg(q(row.path), measure)
                               .arg(n)
                               .arg(n == 1 ? QString() : QStringLiteral("s")),
                           Qt::ElideLeft, title.width()));
  QRect plot = rect.adjusted(0, title.height() + 4, 0, -(fm.height() + 6));
  if (values.empty()) {  // a module of the other run, absent from this one (diff mode)
    p.fillRect(title, Qt::white);
    p.drawText(
        title, Qt::AlignLeft | Qt::AlignVCenter,
        fm.elidedText(QStringLiteral("%1: not in this run").arg(q(row.path)), Qt::ElideLeft, title.width()));
    p.restore();
    return;
  }
  if (plot.height() < 10) {
    p.restore();
    return;
  }
  // Too few iterations for a distribution: the values, not bars.
  if (n < kMinHistogramSamples) {
    QStringList shown;
    for (double v : values.dense()) shown << q(format_ns(v));
    p.setPen(QColor(60, 60, 60));
    p.drawText(plot, Qt::AlignLeft | Qt::AlignTop | Qt::TextWordWrap,
               QStringLiteral("%1 (%2 per iteration). A distribution and percentiles need at least %3 "
                              "iterations.")
                   .arg(shown.join(QStringLiteral(", ")), measure)
                   .arg(kMinHistogramSamples));
    p.restore();
    return;
  }
  const LatencyHistogram hist = latency_histogram(row.stats);
  const double lo = hist.lo, hi = hist.hi;
  const auto& counts = hist.counts;
  const int bins = static_cast<int>(counts.size()), peak = hist.peak;
  double bw = static_cast<double>(plot.width()) / bins;
  p.setPen(Qt::NoPen);
  for (int i = 0; i < bins; ++i) {
    double h = peak ? static_cast<double>(counts[i]) / peak * plot.height() : 0;
    p.fillRect(QRectF(plot.left() + i * bw + 1, plot.bottom() - h, bw - 2, h), QColor(59, 82, 139));
  }
  p.setPen(QColor(120, 120, 120));
  p.drawLine(plot.bottomLeft(), plot.bottomRight());
  auto x_of = [&](double v) { return plot.left() + (v - lo) / (hi - lo) * plot.width(); };
  struct Mark {
    int percentile = 0;
    double v = 0;
    QColor color;
  };
  const Mark marks[] = {{50, row.stats.p50, QColor(46, 125, 50)},
                        {90, row.stats.p90, QColor(239, 108, 0)},
                        {99, row.stats.p99, QColor(198, 40, 40)}};
  // Marks as dashed lines (only percentiles backed by enough iterations); the values in a key at the top
  // right, clear of the bars' labels, "-" with the iterations needed otherwise.
  auto key_text = [&](const Mark& m) {
    const QString value = q(percentile_text(row.stats, m.percentile));
    const int needed = min_samples_for_percentile(m.percentile);
    return QStringLiteral("P%1  %2").arg(m.percentile).arg(value) +
           (n < needed ? QStringLiteral(" (needs %1)").arg(needed) : QString());
  };
  for (const auto& m : marks) {
    if (n < min_samples_for_percentile(m.percentile)) continue;
    double x = x_of(m.v);
    p.setPen(QPen(m.color, 2, Qt::DashLine));
    p.drawLine(QPointF(x, plot.top()), QPointF(x, plot.bottom()));
  }
  int key_w = 0;
  for (const auto& m : marks) key_w = std::max(key_w, fm.horizontalAdvance(key_text(m)));
  QRect key(plot.right() - key_w - 36, plot.top(), key_w + 36, 3 * (fm.height() + 2) + 4);
  p.fillRect(key, QColor(255, 255, 255, 235));
  int key_y = key.top() + 2;
  for (const auto& m : marks) {
    p.setPen(QPen(m.color, 2, Qt::DashLine));
    p.drawLine(key.left() + 6, key_y + fm.height() / 2, key.left() + 24, key_y + fm.height() / 2);
    p.setPen(m.color);
    p.drawText(QRect(key.left() + 30, key_y, key_w + 6, fm.height()), Qt::AlignLeft | Qt::AlignVCenter,
               key_text(m));
    key_y += fm.height() + 2;
  }
  p.setPen(QColor(60, 60, 60));
  QRect axis(plot.left(), plot.bottom() + 3, plot.width(), fm.height());
  p.drawText(axis, Qt::AlignLeft, q(format_ns(lo)));
  p.drawText(axis, Qt::AlignHCenter, measure);
  p.drawText(axis, Qt::AlignRight, q(format_ns(hi)));
  p.restore();
}

QImage render_heatmap_image(const HeatmapData& data, const QSize& size, const HeatmapPaintOptions& options) {
  QImage image(size, QImage::Format_ARGB32_Premultiplied);
  image.fill(Qt::white);
  QPainter p(&image);
  p.setRenderHint(QPainter::Antialiasing, false);
  p.setRenderHint(QPainter::TextAntialiasing, true);
  paint_heatmap(p, data, HeatmapGeometry::compute(data, size, options.font, options.histogram), options);
  p.end();
  return image;
}

}  // namespace flopscope::gui
