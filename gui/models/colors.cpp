#include "gui/models/colors.h"

#include "analyzer/diff/verdict_palette.h"
#include "graphs/heat.h"

namespace flopscope::gui {

// The core's palette (analyzer/diff/verdict_palette.h), as the graphs and the HTML report colour.
QColor status_color(DiffStatus s) {
  return status_color(verdict_of_status(s));
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
