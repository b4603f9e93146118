// Writing what a view shows to a file: the graph scene as PDF, SVG or PNG (by extension), a widget as PNG.
// Files appear whole or not at all.
#pragma once

#include <QString>

#include "db/model/status.h"

class QGraphicsScene;
class QImage;
class QWidget;

namespace flopscope::gui {

Status export_scene(QGraphicsScene& scene, const QString& path);
Status save_image(const QImage& image, const QString& path);
Status export_widget_png(QWidget& widget, const QString& path);

}  // namespace flopscope::gui
