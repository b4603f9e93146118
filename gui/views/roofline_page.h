// Roofline page: the picture `flopscope roofline` writes (graphs/roofline_plot computes the points,
// graphs/roofline_svg draws them; the page renders that SVG), with the points in a table beside it. Click
// a row to select its module everywhere. In diff mode a selector shows run A or run B.
#pragma once

#include <QWidget>

#include "graphs/roofline_plot.h"
#include "gui/models/session.h"
#include "gui/views/run_switch.h"

class QLabel;
class QSvgRenderer;
class QTableWidget;

namespace flopscope::gui {

class MiddleElideDelegate;

// Paints an SVG document scaled into the widget, keeping its aspect ratio.
class SvgView : public QWidget {
  Q_OBJECT

 public:
  explicit SvgView(QWidget* parent = nullptr);
  void setSvg(const QByteArray& svg);

 protected:
  void paintEvent(QPaintEvent* event) override;

 private:
  QSvgRenderer* renderer_;
};

class RooflinePage : public QWidget {
  Q_OBJECT

 public:
  explicit RooflinePage(QWidget* parent = nullptr);
  void setSession(SessionPtr session);
  const graphs::RooflinePlot& plot() const { return plot_; }
  // The SVG shown: the bytes `flopscope roofline RUN -o OUT.svg` writes for the same run.
  const QByteArray& svg() const { return svg_; }
  QTableWidget* table() const { return table_; }

 public Q_SLOTS:
  void selectModule(const QString& path);

 Q_SIGNALS:
  void moduleSelected(const QString& path);

 private:
  void rebuild();
  SessionPtr session_;
  graphs::RooflinePlot plot_;
  QByteArray svg_;
  RunSwitch* run_;
  QLabel* caption_;
  SvgView* view_;
  QTableWidget* table_;
  MiddleElideDelegate* names_;  // the module column's cells, cut in the middle
};

}  // namespace flopscope::gui
