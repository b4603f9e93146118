// Timeline: one row per host thread/depth and per device stream, ops and kernels as boxes over time.
// Wheel zooms around the cursor, dragging pans, hovering names the event. Paints only what the
// level-of-detail query returns (events narrower than a pixel are merged), so a million events stay fluid.
#pragma once

#include <QWidget>
#include <unordered_map>
#include <vector>

#include "gui/models/session.h"

namespace flopscope::gui {

class TimelineWidget : public QWidget {
  Q_OBJECT

 public:
  explicit TimelineWidget(QWidget* parent = nullptr);
  // Shows run A of the session, or run B when `run_b` (diff mode).
  void setSession(SessionPtr session, bool run_b = false);
  void setRange(std::int64_t t0, std::int64_t t1);
  void resetZoom();
  std::int64_t rangeBegin() const { return t0_; }
  std::int64_t rangeEnd() const { return t1_; }
  // Rectangles drawn by the last paint (for tests and the benchmark).
  std::size_t lastPaintedSpans() const { return painted_; }
  // The zero of every time shown (axis labels and tooltips): the start of the first event.
  std::int64_t timeOrigin() const;
  // The shown run's timeline (empty without a session or in a preview).
  const TimelineIndex& timelineIndex() const;
  // Where a lane's events are drawn, and what hovering at `pos` shows ("" over nothing).
  QRect laneRect(std::size_t lane) const;
  QString tooltipAt(const QPoint& pos) const;
  // The time axis as the next paint draws it: each tick's x and its label's box (for tests: every label
  // inside the widget, none cut at the right edge).
  struct AxisTick {
    int x = 0;
    QRect label;
    QString text;
  };
  std::vector<AxisTick> axisTicks(const QFontMetrics& metrics) const;

 protected:
  void paintEvent(QPaintEvent* event) override;
  void wheelEvent(QWheelEvent* event) override;
  void mousePressEvent(QMouseEvent* event) override;
  void mouseMoveEvent(QMouseEvent* event) override;
  void mouseReleaseEvent(QMouseEvent* event) override;

 private:
  double nsPerPixel() const;
  int laneAt(int y) const;
  QRect plotRect() const;

  SessionPtr session_;
  const LoadedRun* run_ = nullptr;  // session_->a or session_->b
  std::unordered_map<Id, std::string> module_paths_;
  std::int64_t t0_ = 0, t1_ = 1;
  int drag_x_ = -1;
  std::int64_t drag_t0_ = 0;
  std::size_t painted_ = 0;
};

}  // namespace flopscope::gui
