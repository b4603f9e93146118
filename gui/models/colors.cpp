#include "gui/models/colors.h"

#include "analyzer/diff/verdict_palette.h"
#include "graphs/heat.h"

namespace flopscope::gui {

const char* to_string(DiffStatus s) {
  switch (s) {
    case DiffStatus::kSame:
      return "unchanged";
    case DiffStatus::kChanged:
      return "changed";
    case DiffStatus::kVanished:
      return "vanished";
    case DiffStatus::kNew:
      return "new";
  }
  return "?";
}

// The core's verdict palette (analyzer/diff/verdict_palette.h), as the graphs and the HTML report colour.
QColor status_color(DiffStatus s) {
  switch (s) {
    case DiffStatus::kVanished:
      return status_color(Verdict::kVanished);
    case DiffStatus::kNew:
      return status_color(Verdict::kNew);
    case DiffStatus::kChanged:
      return status_color(Verdict::kChanged);
    case DiffStatus::kSame:
      break;
  }
  return {};
}

QColor status_color(Verdict v) {
  if (v == Verdict::kUnchanged) return {};
  return QColor(QString::fromLatin1(verdict_color(v).text));
}

QColor heat_color(double t) {
  graphs::Rgb c = graphs::latency_ramp(t);
  return QColor(c.r, c.g, c.b);
}

}  // namespace flopscope::gui
