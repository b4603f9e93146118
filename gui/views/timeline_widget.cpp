#include "gui/views/timeline_widget.h"

#include <QMouseEvent>
#include <QPainter>
#include <QToolTip>
#include <QWheelEvent>
#include <algorithm>
#include <cmath>

#include "gui/models/elide_text.h"
#include "gui/models/format.h"

namespace flopscope::gui {

namespace {

constexpr int kLabelW = 170, kAxisH = 26, kLaneH = 24;
constexpr std::int64_t kTimeLimit = std::int64_t{1} << 61;

// A time computed in doubles (zoom, pan) as an int64 within the range setRange keeps.
std::int64_t to_time(double t) {
  return static_cast<std::int64_t>(
      std::clamp(t, -static_cast<double>(kTimeLimit), static_cast<double>(kTimeLimit)));
}

QColor name_color(std::int32_t name) {
  // Golden-angle hues: neighbouring names get distinct colours.
  double hue = std::fmod(static_cast<double>(name) * 0.618033988749895, 1.0);
  return QColor::fromHsvF(static_cast<float>(hue), 0.45f, 0.92f);
}

}  // namespace

TimelineWidget::TimelineWidget(QWidget* parent) : QWidget(parent) {
  setMouseTracking(true);
  setMinimumSize(400, 200);
}

void TimelineWidget::setSession(SessionPtr session, bool run_b) {
  session_ = std::move(session);
  run_ = !session_ ? nullptr : run_b && session_->b ? session_->b.get() : session_->a.get();
  module_paths_.clear();
  if (run_)
    for (const auto& m : run_->data.modules) module_paths_[m.id] = m.path;
  if (session_) setRange(timelineIndex().first_iteration_begin(), timelineIndex().first_iteration_end());
}

const TimelineIndex& TimelineWidget::timelineIndex() const {
  static const TimelineIndex kNone;
  if (!run_) return kNone;
  StatusOr<const TimelineIndex*> t = run_->analysis.timeline();
  return t.ok() ? **t : kNone;
}

void TimelineWidget::resetZoom() {
  if (session_)
    setRange(timelineIndex().begin(), std::max(timelineIndex().end(), timelineIndex().begin() + 1));
}

void TimelineWidget::setRange(std::int64_t t0, std::int64_t t1) {
  // Panning and zooming compute ranges in doubles and sums of int64s: kept within +-2^61, where neither the
  // sums nor the conversions overflow (the importers refuse times past 2^61 ns, so every event is inside).
  t0_ = std::clamp(t0, -kTimeLimit, kTimeLimit);
  t1_ = std::clamp(t1, t0_ + 10, kTimeLimit + 10);
  update();
}

QRect TimelineWidget::plotRect() const {
  return QRect(kLabelW, kAxisH, width() - kLabelW - 4, height() - kAxisH);
}

double TimelineWidget::nsPerPixel() const {
  return static_cast<double>(t1_ - t0_) / std::max(1, plotRect().width());
}

int TimelineWidget::laneAt(int y) const {
  return y < kAxisH ? -1 : (y - kAxisH) / kLaneH;
}

void TimelineWidget::paintEvent(QPaintEvent*) {
  QPainter p(this);
  p.fillRect(rect(), Qt::white);
  painted_ = 0;
  if (!session_) return;
  const auto& tl = timelineIndex();
  const QRect plot = plotRect();
  const double px = nsPerPixel();
  p.setPen(QColor(90, 90, 90));
  for (const AxisTick& tick : axisTicks(p.fontMetrics())) {
    p.drawLine(tick.x, kAxisH - 6, tick.x, kAxisH);
    if (!tick.text.isEmpty()) p.drawText(tick.label.left(), kAxisH - 9, tick.text);
    p.setPen(QColor(238, 238, 238));
    p.drawLine(tick.x, kAxisH, tick.x, height());
    p.setPen(QColor(90, 90, 90));
  }
  std::vector<TimelineSpan> spans;
  p.setClipRect(QRect(0, kAxisH, width(), height() - kAxisH));
  for (std::size_t lane = 0; lane < tl.lanes().size(); ++lane) {
    int y = kAxisH + static_cast<int>(lane) * kLaneH;
    if (y > height()) break;
    p.setPen(Qt::black);
    p.fillRect(QRect(0, y, width(), kLaneH), lane % 2 ? QColor(248, 248, 250) : QColor(255, 255, 255));
    p.drawText(QRect(4, y, kLabelW - 8, kLaneH), Qt::AlignVCenter | Qt::AlignLeft,
               elide_to_width(QString::fromStdString(tl.lanes()[lane].label), p.fontMetrics(), kLabelW - 8));
    tl.query(lane, t0_, t1_, px, spans);
    p.save();
    p.setClipRect(QRect(plot.left(), y, plot.width(), kLaneH));
    for (const auto& s : spans) {
      double x0 = plot.left() + static_cast<double>(s.start - t0_) / px;
      double x1 = plot.left() + static_cast<double>(s.end - t0_) / px;
      QRectF r(x0, y + 3, std::max(1.0, x1 - x0), kLaneH - 6);
      if (s.name < 0) {
        p.fillRect(r, QColor(120, 130, 150));  // many events merged below one pixel each
      } else {
        p.fillRect(r, name_color(s.name));
        if (r.width() > 40) {
          p.setPen(Qt::black);
          p.drawText(r.adjusted(3, 0, -2, 0), Qt::AlignVCenter | Qt::AlignLeft,
                     elide_to_width(QString::fromStdString(tl.names()[static_cast<std::size_t>(s.name)]),
                                    p.fontMetrics(), static_cast<int>(r.width()) - 5));
        }
      }
      ++painted_;
    }
    p.restore();
  }
}

std::vector<TimelineWidget::AxisTick> TimelineWidget::axisTicks(const QFontMetrics& metrics) const {
  std::vector<AxisTick> ticks;
  if (!session_) return ticks;
  const QRect plot = plotRect();
  const double px = nsPerPixel();
  // About one tick per 150 px at a round step, labelled from the first event (the zero tooltips use too).
  double step = std::pow(10.0, std::floor(std::log10(std::max(px * 150, 1.0))));
  if (px * 150 / step > 5)
    step *= 5;
  else if (px * 150 / step > 2)
    step *= 2;
  const double origin = static_cast<double>(timeOrigin());
  const double first = std::ceil((static_cast<double>(t0_) - origin) / step) * step;
  // Ticks counted by index, at most one per 25 px: far from the origin a step below a double's resolution
  // (256 ns at 2^60 ns) no longer advances `first + step`, and a loop adding steps spun forever.
  const int max_ticks = plot.width() / 25 + 2;
  int previous_right = -1;
  for (int i = 0; i < max_ticks; ++i) {
    const double rel = first + i * step;
    const double t = origin + rel;
    if (t >= static_cast<double>(t1_)) break;
    AxisTick tick;
    tick.x = plot.left() + static_cast<int>((t - static_cast<double>(t0_)) / px);
    tick.text = QString::fromStdString(format_ns(std::round(rel / step) * step));
    // A label that would run past the right edge ends at the tick instead of being cut off; when that
    // would run into the previous label, the tick goes unlabelled.
    const int w = metrics.horizontalAdvance(tick.text);
    const int left = tick.x + 3 + w > width() ? tick.x - 3 - w : tick.x + 3;
    if (left <= previous_right)
      tick.text.clear();
    else {
      tick.label = QRect(left, kAxisH - 9 - metrics.ascent(), w, metrics.height());
      previous_right = left + w;
    }
    ticks.push_back(std::move(tick));
  }
  return ticks;
}

void TimelineWidget::wheelEvent(QWheelEvent* event) {
  const QRect plot = plotRect();
  double x = std::clamp(event->position().x() - plot.left(), 0.0, static_cast<double>(plot.width()));
  double anchor = static_cast<double>(t0_) + x * nsPerPixel();
  double factor = std::pow(0.998, event->angleDelta().y());
  double span = std::max(static_cast<double>(t1_ - t0_) * factor, 100.0);
  const std::int64_t t0 = to_time(anchor - x / plot.width() * span);
  setRange(t0, to_time(static_cast<double>(t0) + span));
  event->accept();
}

void TimelineWidget::mousePressEvent(QMouseEvent* event) {
  if (event->button() == Qt::LeftButton) {
    drag_x_ = static_cast<int>(event->position().x());
    drag_t0_ = t0_;
  }
}

void TimelineWidget::mouseMoveEvent(QMouseEvent* event) {
  const int x = static_cast<int>(event->position().x());
  if (drag_x_ >= 0) {
    const std::int64_t t0 = to_time(static_cast<double>(drag_t0_) + (drag_x_ - x) * nsPerPixel());
    setRange(t0, t0 + (t1_ - t0_));
    return;
  }
  const QString tip = tooltipAt(event->position().toPoint());
  if (tip.isEmpty())
    QToolTip::hideText();
  else
    QToolTip::showText(event->globalPosition().toPoint(), tip, this);
}

QRect TimelineWidget::laneRect(std::size_t lane) const {
  const QRect plot = plotRect();
  return QRect(plot.left(), kAxisH + static_cast<int>(lane) * kLaneH, plot.width(), kLaneH);
}

std::int64_t TimelineWidget::timeOrigin() const {
  return session_ ? timelineIndex().begin() : 0;
}

QString TimelineWidget::tooltipAt(const QPoint& pos) const {
  if (!session_) return {};
  const int x = pos.x();
  int lane = laneAt(pos.y());
  if (lane < 0 || x < plotRect().left() || static_cast<std::size_t>(lane) >= timelineIndex().lanes().size())
    return {};
  const std::int64_t t = to_time(static_cast<double>(t0_) + (x - plotRect().left()) * nsPerPixel());
  const auto& tl = timelineIndex();
  std::int64_t e =
      tl.event_at(static_cast<std::size_t>(lane), t, static_cast<std::int64_t>(nsPerPixel() * 2));
  if (e < 0) return {};
  const auto& ev = tl.lanes()[static_cast<std::size_t>(lane)].events[static_cast<std::size_t>(e)];
  auto m = module_paths_.find(ev.module_id);
  // "at" counts from the axis's zero, so the tooltip and the tick under the cursor agree. An orphan kernel
  // says so: it ran before the profiling window and belongs to no iteration.
  return QStringLiteral("%1\n%2 at %3\nmodule: %4%5")
      .arg(QString::fromStdString(tl.names()[static_cast<std::size_t>(ev.name)]),
           QString::fromStdString(format_ns(static_cast<double>(ev.duration))),
           QString::fromStdString(format_ns(static_cast<double>(ev.start - timeOrigin()))),
           m == module_paths_.end() ? QStringLiteral("-")
                                    : QString::fromStdString(m->second.empty() ? "(model)" : m->second),
           ev.orphan ? QStringLiteral("\norphan: launched before the profiling window, in no iteration")
                     : QString());
}

void TimelineWidget::mouseReleaseEvent(QMouseEvent*) {
  drag_x_ = -1;
}

}  // namespace flopscope::gui
