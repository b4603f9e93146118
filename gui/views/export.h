// Writing what a view shows to a file: the graph scene as PDF, SVG or PNG (by extension), a widget as PNG,
// a painting as PNG or SVG, text (CSV). Files appear whole or not at all.
#pragma once

#include <QSize>
#include <QString>
#include <functional>
#include <string>

#include "db/model/status.h"

class QGraphicsScene;
class QImage;
class QPainter;
class QWidget;

namespace flopscope::gui {

// PDF: one page of the scene's size when it fits A3 landscape; larger, an overview page and then A3 tiles.
Status export_scene(QGraphicsScene& scene, const QString& path);
Status save_image(const QImage& image, const QString& path);
Status export_widget_png(QWidget& widget, const QString& path);
// What `paint` draws on a white page of `size`, as PNG or SVG by the path's extension.
Status save_painting(const QSize& size, const QString& path, const std::function<void(QPainter&)>& paint);
Status save_text(const std::string& text, const QString& path);

}  // namespace flopscope::gui
