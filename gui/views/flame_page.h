// Flame page: the module icicle of one run (graphs::icicle_layout, the cells `flopscope flame` writes),
// widths by time, FLOPs or bytes; in diff mode a switch picks run A or run B. Click a module to select it
// everywhere, double-click to zoom into it.
#pragma once

#include <QWidget>

#include "graphs/icicle.h"
#include "gui/models/session.h"
#include "gui/views/run_switch.h"

class QComboBox;
class QLabel;
class QPushButton;

namespace flopscope::gui {

class FlameWidget : public QWidget {
  Q_OBJECT

 public:
  explicit FlameWidget(QWidget* parent = nullptr);
  void setIcicle(graphs::Icicle icicle, const RunSummary* summary);
  const graphs::Icicle& icicle() const { return icicle_; }
  void setSelectedPath(const QString& path);
  // The cell under a widget position, or -1.
  int cellAt(const QPoint& pos) const;
  QRectF cellRect(int i) const;

 Q_SIGNALS:
  void cellClicked(int module);
  void cellDoubleClicked(int module);

 protected:
  void paintEvent(QPaintEvent* event) override;
  void mouseMoveEvent(QMouseEvent* event) override;
  void mousePressEvent(QMouseEvent* event) override;
  void mouseDoubleClickEvent(QMouseEvent* event) override;
  QSize sizeHint() const override;

 private:
  graphs::Icicle icicle_;
  const RunSummary* summary_ = nullptr;
  QString selected_;
  bool has_selection_ = false;
};

class FlamePage : public QWidget {
  Q_OBJECT

 public:
  explicit FlamePage(QWidget* parent = nullptr);
  void setSession(SessionPtr session);
  FlameWidget* flameWidget() const { return widget_; }
  // Which run is drawn: 0 for A, 1 for B (diff mode only; the switch is hidden otherwise).
  QComboBox* runSelector() const { return run_; }
  // Draws `path` full width ("" for the whole model); false when the run has no such module.
  bool zoomTo(const QString& path);

 public Q_SLOTS:
  void selectModule(const QString& path);

 Q_SIGNALS:
  void moduleSelected(const QString& path);

 private:
  void rebuild();
  const LoadedRun& shownRun() const;
  SessionPtr session_;
  int root_ = 0;
  RunSwitch* run_;
  QComboBox* metric_;
  QPushButton* whole_;
  QLabel* caption_;
  FlameWidget* widget_;
};

}  // namespace flopscope::gui
