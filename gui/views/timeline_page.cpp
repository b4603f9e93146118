#include "gui/views/timeline_page.h"

#include <QComboBox>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QVBoxLayout>

#include "gui/models/format.h"
#include "gui/views/timeline_widget.h"

namespace flopscope::gui {

TimelinePage::TimelinePage(QWidget* parent)
    : QWidget(parent), run_(new RunSwitch(this)), widget_(new TimelineWidget(this)), info_(new QLabel(this)) {
  connect(run_, &QComboBox::currentIndexChanged, this, &TimelinePage::showRun);
  auto zoom = [this](double factor) {
    std::int64_t t0 = widget_->rangeBegin(), t1 = widget_->rangeEnd();
    double mid = (static_cast<double>(t0) + static_cast<double>(t1)) / 2,
           half = static_cast<double>(t1 - t0) / 2 * factor;
    widget_->setRange(static_cast<std::int64_t>(mid - half), static_cast<std::int64_t>(mid + half));
  };
  auto* in = new QPushButton(tr("Zoom in"), this);
  connect(in, &QPushButton::clicked, this, [zoom] { zoom(0.5); });
  auto* out = new QPushButton(tr("Zoom out"), this);
  connect(out, &QPushButton::clicked, this, [zoom] { zoom(2); });
  auto* first = new QPushButton(tr("First iteration"), this);
  connect(first, &QPushButton::clicked, this, [this] {
    if (session_)
      widget_->setRange(widget_->timelineIndex().first_iteration_begin(),
                        widget_->timelineIndex().first_iteration_end());
  });
  auto* all = new QPushButton(tr("Whole run"), this);
  connect(all, &QPushButton::clicked, widget_, &TimelineWidget::resetZoom);
  auto* bar = new QHBoxLayout;
  bar->addWidget(run_);
  bar->addWidget(in);
  bar->addWidget(out);
  bar->addWidget(first);
  bar->addWidget(all);
  bar->addWidget(info_, 1);
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(4, 4, 4, 4);
  layout->addLayout(bar);
  layout->addWidget(widget_, 1);
}

void TimelinePage::setSession(SessionPtr session) {
  session_ = std::move(session);
  run_->reset(session_);
  showRun();
}

void TimelinePage::showRun() {
  widget_->setSession(session_, run_->showsB());
  if (!session_) return;
  const LoadedRun& run = run_->run(*session_);
  const auto& tl = widget_->timelineIndex();
  info_->setText(
      tr("%1%2 events in %3 lanes over %4. Wheel: zoom, drag: pan, hover: details; grey boxes merge "
         "events narrower than a pixel.")
          .arg(session_->is_diff() ? QFileInfo(run.path).fileName() + QStringLiteral(": ") : QString())
          .arg(tl.event_count())
          .arg(tl.lanes().size())
          .arg(QString::fromStdString(format_ns(static_cast<double>(tl.end() - tl.begin())))));
}

}  // namespace flopscope::gui
