#include "gui/views/export.h"

#include <QBuffer>
#include <QFileInfo>
#include <QGraphicsScene>
#include <QImage>
#include <QPainter>
#include <QPdfWriter>
#include <QSvgGenerator>
#include <QWidget>

#include "db/model/atomic_file.h"

namespace flopscope::gui {

namespace {

Status write_bytes(const QString& path, const QByteArray& bytes) {
  return write_file_atomically(path.toStdString(), std::string_view(bytes.constData(), bytes.size()), true);
}

}  // namespace

Status save_image(const QImage& image, const QString& path) {
  QByteArray bytes;
  QBuffer buffer(&bytes);
  buffer.open(QIODevice::WriteOnly);
  if (!image.save(&buffer, "PNG")) return IoError(path.toStdString() + ": could not encode PNG");
  return write_bytes(path, bytes);
}

Status export_scene(QGraphicsScene& scene, const QString& path) {
  const QString ext = QFileInfo(path).suffix().toLower();
  const QRectF source = scene.itemsBoundingRect().adjusted(-20, -20, 20, 20);
  QByteArray bytes;
  QBuffer buffer(&bytes);
  buffer.open(QIODevice::WriteOnly);
  if (ext == QLatin1String("png")) {
    // 2x for legibility, capped so huge graphs stay within memory.
    double scale = std::min(2.0, 16000.0 / std::max(source.width(), source.height()));
    QImage image((source.size() * scale).toSize(), QImage::Format_ARGB32_Premultiplied);
    image.fill(Qt::white);
    QPainter p(&image);
    p.setRenderHint(QPainter::Antialiasing);
    scene.render(&p, QRectF(QPointF(0, 0), source.size() * scale), source);
    p.end();
    return save_image(image, path);
  }
  if (ext == QLatin1String("svg")) {
    QSvgGenerator svg;
    svg.setOutputDevice(&buffer);
    svg.setSize(source.size().toSize());
    svg.setViewBox(QRectF(QPointF(0, 0), source.size()));
    svg.setTitle(QStringLiteral("flopscope graph"));
    QPainter p(&svg);
    scene.render(&p, QRectF(QPointF(0, 0), source.size()), source);
    p.end();
    return write_bytes(path, bytes);
  }
  if (ext == QLatin1String("pdf")) {
    QPdfWriter pdf(&buffer);
    pdf.setTitle(QStringLiteral("flopscope graph"));
    pdf.setResolution(72);
    pdf.setPageSize(QPageSize(source.size(), QPageSize::Point));
    pdf.setPageMargins(QMarginsF(0, 0, 0, 0));
    QPainter p(&pdf);
    scene.render(&p, QRectF(QPointF(0, 0), source.size()), source);
    p.end();
    return write_bytes(path, bytes);
  }
  return InvalidArgument(path.toStdString() + ": unknown export format (use .pdf, .svg or .png)");
}

Status export_widget_png(QWidget& widget, const QString& path) { return save_image(widget.grab().toImage(), path); }

}  // namespace flopscope::gui
