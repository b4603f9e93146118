// Paints the latency heatmap and a module's latency histogram with QPainter, so the same picture comes
// out of the GUI widget and the screenshot mode; `flopscope heatmap` draws the same data without Qt
// (graphs/heatmap_dot.h).
#pragma once

#include <QFont>
#include <QImage>
#include <QRect>
#include <QString>
#include <QStringList>

#include "gui/models/heatmap_model.h"

class QPainter;

namespace flopscope::gui {

// Where things are in a heatmap picture of a given size; views use it to hit-test the mouse.
struct HeatmapGeometry {
  QRect grid;       // the cells
  QRect histogram;  // below the grid; empty when there is no room
  QRect legend;     // colour bar, right of the grid (its tick labels right of it)
  int rows = 0;
  int columns = 0;
  double cell_w = 0;
  double cell_h = 0;

  // with_histogram: leave the lower third for the selected row's histogram (when tall enough).
  static HeatmapGeometry compute(const HeatmapData& data, const QSize& size, const QFont& font,
                                 bool with_histogram = true);
  // Cell under a point, or (-1, -1).
  std::pair<int, int> cell_at(const QPoint& p) const;
};

struct HeatmapPaintOptions {
  QString title;
  int selected_row = 0;  // whose histogram is drawn; -1 for none
  QFont font;
  // The columns: iterations by default; the Ranks tab's matrix names them by rank.
  QString column_axis = QStringLiteral("iteration");
  QStringList column_labels;  // tick label per column; empty: the column number
  bool histogram = true;      // draw the selected row's histogram below the grid
  QString empty_text = QStringLiteral("No module has per-iteration self time in this run.");
  // What the colour bar measures; empty: "<clock> self time" from the data (analyzer/clock.h).
  QString measure;
};

// Cells wider than this say nothing more: a run of few iterations gets a narrow grid with values written
// in its cells instead of a few wall-wide blocks.
inline constexpr int kMaxHeatmapCellWidth = 90;

void paint_heatmap(QPainter& painter, const HeatmapData& data, const HeatmapGeometry& g,
                   const HeatmapPaintOptions& options);
// Histogram of one row's per-iteration values with P50, P90 and P99 marked (each only from enough
// iterations, analyzer/latency.h) and the sample count; with too few iterations for a distribution
// (kMinHistogramSamples), the values themselves. `measure` names the quantity ("device self time").
void paint_histogram(QPainter& painter, const QRect& rect, const HeatmapRow& row, const QFont& font,
                     const QString& measure);

// The whole picture on a white background, for files.
QImage render_heatmap_image(const HeatmapData& data, const QSize& size, const HeatmapPaintOptions& options);

// The colour bar's caption for these options and data.
QString heatmap_measure(const HeatmapData& data, const HeatmapPaintOptions& options);

}  // namespace flopscope::gui
