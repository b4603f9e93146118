// Timeline page: the timeline with zoom buttons and what is on screen; in diff mode a switch picks run A or
// B.
#pragma once

#include <QWidget>

#include "gui/models/session.h"
#include "gui/views/run_switch.h"

class QLabel;

namespace flopscope::gui {

class TimelineWidget;

class TimelinePage : public QWidget {
  Q_OBJECT

 public:
  explicit TimelinePage(QWidget* parent = nullptr);
  void setSession(SessionPtr session);
  TimelineWidget* timeline() const { return widget_; }
  QComboBox* runSelector() const { return run_; }

 private:
  void showRun();
  SessionPtr session_;
  RunSwitch* run_;
  TimelineWidget* widget_;
  QLabel* info_;
};

}  // namespace flopscope::gui
