// The Run A / Run B switch of the views that show one run at a time (flame, timeline, roofline): shown only
// when a diff is open, and back on run A whenever a session is opened.
#pragma once

#include <QComboBox>
#include <QSignalBlocker>

#include "gui/models/session.h"

namespace flopscope::gui {

class RunSwitch : public QComboBox {
 public:
  explicit RunSwitch(QWidget* parent) : QComboBox(parent) {
    addItem(tr("Run A"));
    addItem(tr("Run B"));
    hide();
  }

  // Run A again without a change signal (the page rebuilds once, after this), visible only for a diff.
  void reset(const SessionPtr& session) {
    {
      const QSignalBlocker quiet(this);
      setCurrentIndex(0);
    }
    setVisible(session && session->is_diff());
  }

  bool showsB() const { return currentIndex() == 1; }
  // The run shown: B when chosen and loaded, A otherwise.
  const LoadedRun& run(const Session& session) const {
    return showsB() && session.b ? *session.b : *session.a;
  }
};

}  // namespace flopscope::gui
