#include "gui/models/colors.h"

#include "graphs/heat.h"

namespace flopscope::gui {

QColor status_color(DiffStatus s) {
  switch (s) {
    case DiffStatus::kVanished: return QColor(0xc6, 0x28, 0x28);
    case DiffStatus::kNew: return QColor(0x2e, 0x7d, 0x32);
    case DiffStatus::kChanged: return QColor(0xef, 0x6c, 0x00);
    case DiffStatus::kSame: break;
  }
  return {};
}

QColor heat_color(double t) {
  graphs::Rgb c = graphs::latency_ramp(t);
  return QColor(c.r, c.g, c.b);
}

}  // namespace flopscope::gui
