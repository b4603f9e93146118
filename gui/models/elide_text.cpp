#include "gui/models/elide_text.h"

#include <string>

#include "analyzer/format.h"

namespace flopscope::gui {

QString elide_to_width(const QString& name, const QFontMetrics& metrics, int width) {
  if (metrics.horizontalAdvance(name) <= width) return name;
  const std::string utf8 = name.toStdString();
  auto cut = [&](std::size_t points) { return QString::fromStdString(elide_middle(utf8, points)); };
  // The widest cut that fits: text width grows with the number of code points kept.
  std::size_t lo = 0, hi = 0;
  for (unsigned char c : utf8) hi += (c & 0xC0) != 0x80;  // code points, as elide_middle counts them
  while (lo < hi) {
    const std::size_t mid = (lo + hi + 1) / 2;
    if (metrics.horizontalAdvance(cut(mid)) <= width)
      lo = mid;
    else
      hi = mid - 1;
  }
  return lo < 3 ? QString() : cut(lo);
}

}  // namespace flopscope::gui
