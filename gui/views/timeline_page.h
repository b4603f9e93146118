// Timeline page: the timeline with zoom buttons and what is on screen.
#pragma once

#include <QWidget>

#include "gui/models/session.h"

class QLabel;

namespace flopscope::gui {

class TimelineWidget;

class TimelinePage : public QWidget {
  Q_OBJECT

 public:
  explicit TimelinePage(QWidget* parent = nullptr);
  void setSession(SessionPtr session);
  TimelineWidget* timeline() const { return widget_; }

 private:
  SessionPtr session_;
  TimelineWidget* widget_;
  QLabel* info_;
};

}  // namespace flopscope::gui
