#include "gui/models/elide_text.h"

#include <algorithm>
#include <string>
#include <vector>

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

QStringList elide_all_to_width(const QStringList& names, const QFontMetrics& metrics, int width) {
  std::vector<std::string> utf8;
  std::size_t hi = 0;
  for (const auto& n : names) {
    utf8.push_back(n.toStdString());
    hi = std::max(hi, static_cast<std::size_t>(n.toUcs4().size()));
  }
  auto cut = [&](std::size_t points) {
    QStringList out;
    for (const auto& s : elide_distinct(utf8, points)) out << QString::fromStdString(s);
    return out;
  };
  auto fits = [&](const QStringList& texts) {
    return std::all_of(texts.begin(), texts.end(),
                       [&](const QString& t) { return metrics.horizontalAdvance(t) <= width; });
  };
  // The widest cut at which every name fits.
  std::size_t lo = 0;
  while (lo < hi) {
    const std::size_t mid = (lo + hi + 1) / 2;
    if (fits(cut(mid)))
      lo = mid;
    else
      hi = mid - 1;
  }
  if (lo < 3) return QStringList(names.size(), QString());
  return cut(lo);
}

}  // namespace flopscope::gui
