#include "gui/models/colors.h"

#include <algorithm>
#include <array>
#include <cmath>

namespace flopscope::gui {

const char* to_string(DiffStatus s) {
  switch (s) {
    case DiffStatus::kSame: return "unchanged";
    case DiffStatus::kChanged: return "changed";
    case DiffStatus::kVanished: return "vanished";
    case DiffStatus::kNew: return "new";
  }
  return "?";
}

QColor status_color(DiffStatus s) {
  switch (s) {
    case DiffStatus::kVanished: return QColor(0xc6, 0x28, 0x28);
    case DiffStatus::kNew: return QColor(0x2e, 0x7d, 0x32);
    case DiffStatus::kChanged: return QColor(0xef, 0x6c, 0x00);
    case DiffStatus::kSame: break;
  }
  return {};
}

QColor status_color(Verdict v) {
  switch (v) {
    case Verdict::kVanished: return status_color(DiffStatus::kVanished);
    case Verdict::kNew: return status_color(DiffStatus::kNew);
    case Verdict::kChanged: return status_color(DiffStatus::kChanged);
    case Verdict::kDormant: return QColor(0x8d, 0x4e, 0x00);
    case Verdict::kMoved: return QColor(0x61, 0x61, 0x61);
    case Verdict::kUnchanged: break;
  }
  return {};
}

QColor heat_color(double t) {
  // Control points of a viridis-like ramp (perceptually ordered, colour-blind safe).
  static constexpr std::array<std::array<int, 3>, 5> stops{{
      {68, 1, 84}, {59, 82, 139}, {33, 145, 140}, {94, 201, 98}, {253, 231, 37}}};
  if (!std::isfinite(t)) t = 0;
  t = std::clamp(t, 0.0, 1.0) * (stops.size() - 1);
  auto i = std::min<std::size_t>(static_cast<std::size_t>(t), stops.size() - 2);
  double f = t - static_cast<double>(i);
  auto mix = [&](int c) { return static_cast<int>(std::lround(stops[i][c] + (stops[i + 1][c] - stops[i][c]) * f)); };
  return QColor(mix(0), mix(1), mix(2));
}

}  // namespace flopscope::gui
