#include "gui/models/colors.h"

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

QColor status_color(DiffStatus s) {
  switch (s) {
    case DiffStatus::kVanished:
      return QColor(0xc6, 0x28, 0x28);
    case DiffStatus::kNew:
      return QColor(0x2e, 0x7d, 0x32);
    case DiffStatus::kChanged:
      return QColor(0xef, 0x6c, 0x00);
    case DiffStatus::kSame:
      break;
  }
  return {};
}

QColor status_color(Verdict v) {
  switch (v) {
    case Verdict::kVanished:
      return status_color(DiffStatus::kVanished);
    case Verdict::kNew:
      return status_color(DiffStatus::kNew);
    case Verdict::kChanged:
      return status_color(DiffStatus::kChanged);
    case Verdict::kDormant:
      return QColor(0x8d, 0x4e, 0x00);
    case Verdict::kAmbiguous:
      return QColor(0x6a, 0x1b, 0x9a);  // never proof: its own colour
    case Verdict::kNotRun:
      return QColor(0xad, 0x14, 0x57);
    case Verdict::kMoved:
    case Verdict::kUnwrapped:
    case Verdict::kWrapped:
      return QColor(0x61, 0x61, 0x61);  // a path or a level changed, nothing else
    case Verdict::kUnchanged:
      break;
  }
  return {};
}

QColor heat_color(double t) {
  graphs::Rgb c = graphs::latency_ramp(t);
  return QColor(c.r, c.g, c.b);
}

}  // namespace flopscope::gui
