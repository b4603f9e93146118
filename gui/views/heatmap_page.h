// Heatmap page: iterations by top-N modules coloured by self time, with the selected module's histogram
// (P50/P90/P99 marked) below; hover for values, click a row to select it; export PNG.
#pragma once

#include <QWidget>

#include "gui/models/heatmap_model.h"
#include "gui/models/heatmap_painter.h"
#include "gui/models/session.h"

class QSpinBox;

namespace flopscope::gui {

class HeatmapWidget : public QWidget {
  Q_OBJECT

 public:
  explicit HeatmapWidget(QWidget* parent = nullptr);
  void setHeatmap(HeatmapData heatmap, QString title);
  // Column naming, histogram and empty text (HeatmapPaintOptions); the Ranks tab's matrix sets them.
  void setColumns(QString axis, QStringList labels, bool histogram, QString empty_text);
  // Tooltips from this model's ToolTipRole at (row, column) instead of the latency heatmap's own.
  void setTooltipModel(const QAbstractItemModel* model) { tooltips_ = model; }
  const HeatmapData& heatmap() const { return data_; }
  int selectedRow() const { return selected_; }
  void setSelectedRow(int row);
  QImage render(const QSize& size) const;

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
  HeatmapModel* model() const { return model_; }

 public Q_SLOTS:
  void selectModule(const QString& path);

 Q_SIGNALS:
  void moduleSelected(const QString& path);

 private:
  void rebuild();
  SessionPtr session_;
  HeatmapModel* model_;
  HeatmapWidget* widget_;
  QSpinBox* top_n_;
};

}  // namespace flopscope::gui
