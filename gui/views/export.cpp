#include "gui/views/export.h"

#include <QBuffer>
#include <QFileInfo>
#include <QGraphicsScene>
#include <QImage>
#include <QPainter>
#include <QPdfWriter>
#include <QSvgGenerator>
#include <QWidget>
#include <cmath>

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
    pdf.setPageMargins(QMarginsF(0, 0, 0, 0));
    const QSizeF printable = QPageSize(QPageSize::A3).size(QPageSize::Point).transposed();  // landscape
    if (source.width() <= printable.width() && source.height() <= printable.height()) {
      pdf.setPageSize(QPageSize(source.size(), QPageSize::Point));
      QPainter p(&pdf);
      scene.render(&p, QRectF(QPointF(0, 0), source.size()), source);
      p.end();
      return write_bytes(path, bytes);
    }
    // Larger than a printable page: an overview of the whole graph first, then the graph in A3 tiles at
    // 100% (or, past 64 tiles, at the scale that keeps 64), each tile labelled with its place.
    pdf.setPageSize(QPageSize(printable, QPageSize::Point));
    const QRectF page(QPointF(0, 0), printable);
    double tile_scale = 1;
    auto count = [&](double extent, double side) {
      return static_cast<int>(std::ceil(extent / (side * tile_scale)));
    };
    while (count(source.width(), printable.width()) * count(source.height(), printable.height()) > 64)
      tile_scale *= 1.25;
    const int cols = count(source.width(), printable.width()),
              rows = count(source.height(), printable.height());
    QPainter p(&pdf);
    QFont font = p.font();
    font.setPixelSize(11);
    p.setFont(font);
    const QRectF band(16, 6, printable.width() - 32, 18);
    scene.render(&p, page.adjusted(16, 28, -16, -16), source, Qt::KeepAspectRatio);
    p.drawText(
        band, Qt::AlignLeft | Qt::AlignVCenter,
        QStringLiteral("Overview of the whole graph; %1 pages follow (%2 columns x %3 rows)%4.")
            .arg(cols * rows)
            .arg(cols)
            .arg(rows)
            .arg(tile_scale > 1 ? QStringLiteral(" at %1%").arg(std::lround(100 / tile_scale)) : QString()));
    const QSizeF tile = printable * tile_scale;
    for (int r = 0; r < rows; ++r)
      for (int c = 0; c < cols; ++c) {
        pdf.newPage();
        scene.render(&p, page, QRectF(source.topLeft() + QPointF(c * tile.width(), r * tile.height()), tile));
        p.drawText(band, Qt::AlignRight | Qt::AlignVCenter,
                   QStringLiteral("row %1 of %2, column %3 of %4").arg(r + 1).arg(rows).arg(c + 1).arg(cols));
      }
    p.end();
    return write_bytes(path, bytes);
  }
  return InvalidArgument(path.toStdString() + ": unknown export format (use .pdf, .svg or .png)");
}

Status export_widget_png(QWidget& widget, const QString& path) {
  return save_image(widget.grab().toImage(), path);
}

Status save_painting(const QSize& size, const QString& path, const std::function<void(QPainter&)>& paint) {
  const QString ext = QFileInfo(path).suffix().toLower();
  if (ext == QLatin1String("png")) {
    QImage image(size, QImage::Format_ARGB32_Premultiplied);
    image.fill(Qt::white);
    QPainter p(&image);
    p.setRenderHint(QPainter::TextAntialiasing, true);
    paint(p);
    p.end();
    return save_image(image, path);
  }
  if (ext == QLatin1String("svg")) {
    QByteArray bytes;
    QBuffer buffer(&bytes);
    buffer.open(QIODevice::WriteOnly);
    QSvgGenerator svg;
    svg.setOutputDevice(&buffer);
    svg.setSize(size);
    svg.setViewBox(QRect(QPoint(0, 0), size));
    svg.setTitle(QStringLiteral("flopscope"));
    QPainter p(&svg);
    p.fillRect(QRect(QPoint(0, 0), size), Qt::white);
    paint(p);
    p.end();
    return write_bytes(path, bytes);
  }
  return InvalidArgument(path.toStdString() + ": unknown export format (use .png, .svg or .csv)");
}

Status save_text(const std::string& text, const QString& path) {
  return write_file_atomically(path.toStdString(), text, true);
}

}  // namespace flopscope::gui
