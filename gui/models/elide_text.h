// Names cut to a width in pixels for the GUI's painted views (flame cells, timeline lanes and spans,
// heatmap rows): the core's elide_middle (analyzer/format.h), which keeps the end that tells similar
// names apart (layer numbers, kernel tile sizes), at the most characters that fit the font.
#pragma once

#include <QFontMetrics>
#include <QString>
#include <QStringList>

namespace flopscope::gui {

// `name` unchanged when it fits `width` pixels, else elide_middle at the most code points that fit; "" when
// not even three characters fit.
QString elide_to_width(const QString& name, const QFontMetrics& metrics, int width);
// Every name of one column cut to `width` pixels with elide_distinct: the most code points at which every
// cut fits, and names that differ stay different (the layer number kept where elide_middle would drop it).
QStringList elide_all_to_width(const QStringList& names, const QFontMetrics& metrics, int width);

}  // namespace flopscope::gui
