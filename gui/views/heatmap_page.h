// Heatmap page: iterations by top-N modules coloured by self time on the session's clock, with the
// selected module's histogram (P50/P90/P99 marked) below; in diff mode runs A and B side by side on the
// same rows and colour scale (analyzer/heatmap: heatmap_pair). Hover for values, click a row to select it
// (in both); export PNG, SVG or the matrix as CSV.
#pragma once

#include <QWidget>

#include "db/model/status.h"
#include "gui/models/heatmap_model.h"
#include "gui/models/heatmap_painter.h"
#include "gui/models/session.h"

class QLabel;
class QSpinBox;

namespace flopscope::gui {

class HeatmapWidget : public QWidget {
  Q_OBJECT

 public:
  explicit HeatmapWidget(QWidget* parent = nullptr);
  void setHeatmap(HeatmapData heatmap, QString title);
  // Column naming, histogram and empty text (HeatmapPaintOptions); the Ranks tab's matrix sets them.
  void setColumns(QString axis, QStringList labels, bool histogram, QString empty_text);
  // What the colour bar measures (HeatmapPaintOptions::measure).
  void setMeasure(QString measure);
  // Tooltips from this model's ToolTipRole at (row, column) instead of the latency heatmap's own.
  void setTooltipModel(const QAbstractItemModel* model) { tooltips_ = model; }
  const HeatmapData& heatmap() const { return data_; }
  int selectedRow() const { return selected_; }
  void setSelectedRow(int row);
  QImage render(const QSize& size) const;
  void paintPicture(QPainter& painter, const QSize& size) const;

 Q_SIGNALS:
  void rowSelected(const QString& path);

 protected:
  void paintEvent(QPaintEvent* event) override;
  void mouseMoveEvent(QMouseEvent* event) override;
  void mousePressEvent(QMouseEvent* event) override;

 private:
  HeatmapPaintOptions options() const;

  HeatmapData data_;
  QString title_;
  int selected_ = 0;
  HeatmapPaintOptions columns_;  // column_axis, column_labels, histogram, empty_text
  const QAbstractItemModel* tooltips_ = nullptr;
};

class HeatmapPage : public QWidget {
  Q_OBJECT

 public:
  explicit HeatmapPage(QWidget* parent = nullptr);
  void setSession(SessionPtr session);
  HeatmapWidget* heatmapWidget() const { return widget_; }
  // Run B's picture in diff mode (hidden with one run).
  HeatmapWidget* heatmapWidgetB() const { return widget_b_; }
  HeatmapModel* model() const { return model_; }
  // Writes what the page shows by extension: .png or .svg (both runs side by side in diff mode) or .csv
  // (the matrix; both runs with a run column in diff mode).
  Status exportTo(const QString& path) const;
  // The line above the pictures when the run has too few iterations for colours across them ("" else).
  QString noteText() const;
  // The line under the pictures saying what the colours mean, with units (analyzer/heatmap's legend).
  QString legendText() const;

 public Q_SLOTS:
  void selectModule(const QString& path);

 Q_SIGNALS:
  void moduleSelected(const QString& path);

 private:
  void rebuild();
  SessionPtr session_;
  HeatmapModel* model_;
  HeatmapWidget* widget_;
  HeatmapWidget* widget_b_;
  QSpinBox* top_n_;
  QLabel* note_;      // why the colours do not show a spread: too few iterations
  QLabel* legend_;    // what the colours mean
  HeatmapPair pair_;  // diff mode: what the two widgets show
};

}  // namespace flopscope::gui
