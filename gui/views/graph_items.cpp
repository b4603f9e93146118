#include "gui/views/graph_items.h"

#include <QFont>
#include <QFontMetricsF>
#include <QGraphicsSceneMouseEvent>
#include <QPainter>
#include <QStyleOptionGraphicsItem>
#include <cmath>

namespace flopscope::gui {

namespace {

const QColor kHalo(25, 118, 210);

QRectF to_rect(const graphs::LayoutBox& b) {
  return QRectF(b.x, b.y, b.width, b.height);
}

bool has_style(const std::string& style, const char* word) {
  return style.find(word) != std::string::npos;
}

// Graphviz sized the boxes for Helvetica at the DOT font size in points, one point per scene unit. Qt may
// pick a wider or taller face for "Helvetica" than Graphviz measured with, so text shrinks until every line
// fits `room` across and all lines fit it down: labels stay inside their node's border.
QFont layout_font(double size, const QString& text, const QSizeF& room) {
  QFont f(QStringLiteral("Helvetica"));
  f.setPixelSize(std::max(1, static_cast<int>(std::lround(size))));
  double widest = 0;
  const QFontMetricsF metrics(f);
  const QStringList lines = text.split(QLatin1Char('\n'));
  for (const QString& line : lines) widest = std::max(widest, metrics.horizontalAdvance(line));
  const double tall = metrics.lineSpacing() * static_cast<double>(lines.size());
  double shrink = 1;
  if (widest > room.width() && room.width() > 0) shrink = room.width() / widest;
  if (tall > room.height() && room.height() > 0) shrink = std::min(shrink, room.height() / tall);
  if (shrink < 1) f.setPixelSize(std::max(5, static_cast<int>(size * shrink)));
  return f;
}

// Where a node's label goes: inside the border, and for an oval inside the rectangle the ellipse holds
// (its sides over sqrt(2), a little more room than that since label lines are short at the top and bottom).
QRectF label_room(const QRectF& node, bool oval) {
  if (!oval) return node.adjusted(3, 2, -3, -2);
  const double k = 0.78;
  return QRectF(node.center().x() - node.width() * k / 2, node.center().y() - node.height() * k / 2,
                node.width() * k, node.height() * k);
}

QString diff_text(DiffStatus d) {
  return d == DiffStatus::kUnchanged ? QString()
                                     : QStringLiteral("\n") + QString::fromLatin1(flopscope::to_string(d));
}

}  // namespace

QColor layout_color(const std::string& name, const QColor& fallback) {
  QColor c(QString::fromStdString(name));
  return c.isValid() ? c : fallback;
}

GraphNodeItem::GraphNodeItem(int index, const graphs::LaidOutNode& node, const graphs::ViewNode& view_node)
    : index_(index),
      module_path_(view_node.module_path),
      label_(QString::fromStdString(node.label)),
      rect_(to_rect(node.box)),
      fill_(layout_color(node.fill, Qt::white)),
      border_(layout_color(node.border, Qt::black)),
      font_color_(layout_color(node.font_color, Qt::black)),
      pen_width_(node.pen_width),
      font_size_(node.font_size),
      dashed_(has_style(node.style, "dashed")),
      dotted_(has_style(node.style, "dotted")),
      rounded_(has_style(node.style, "rounded")),
      oval_(node.shape == "oval" || node.shape == "ellipse"),
      collapsed_(view_node.is_module) {
  setToolTip(QString::fromStdString(view_node.is_module ? view_node.module_path : view_node.identity) +
             diff_text(view_node.diff));
  setAcceptHoverEvents(true);
  setZValue(2);
}

void GraphNodeItem::setActions(Action click, Action expand) {
  click_ = std::move(click);
  expand_ = std::move(expand);
}

void GraphNodeItem::mousePressEvent(QGraphicsSceneMouseEvent* event) {
  if (event->button() == Qt::LeftButton && click_) {
    event->accept();
    click_(module_path_);
    return;
  }
  QGraphicsItem::mousePressEvent(event);
}

void GraphNodeItem::mouseDoubleClickEvent(QGraphicsSceneMouseEvent* event) {
  if (collapsed_ && expand_) {
    event->accept();
    expand_(module_path_);  // queued by the page: the scene is rebuilt after this returns
    return;
  }
  QGraphicsItem::mouseDoubleClickEvent(event);
}

void GraphNodeItem::setHighlighted(bool on) {
  if (highlighted_ == on) return;
  highlighted_ = on;
  update();
}

QRectF GraphNodeItem::boundingRect() const {
  return rect_.adjusted(-8, -8, 8, 8);
}

void GraphNodeItem::paint(QPainter* p, const QStyleOptionGraphicsItem*, QWidget*) {
  QPen pen(border_, pen_width_);
  if (dashed_) pen.setStyle(Qt::DashLine);
  if (dotted_) pen.setStyle(Qt::DotLine);
  if (highlighted_) {  // a halo around the node, so a diff border stays visible under the selection
    p->setPen(QPen(kHalo, 3));
    p->setBrush(Qt::NoBrush);
    p->drawRoundedRect(rect_.adjusted(-3.5, -3.5, 3.5, 3.5), 8, 8);
  }
  p->setPen(pen);
  p->setBrush(fill_);
  if (oval_) {
    p->drawEllipse(rect_);
  } else if (collapsed_) {  // box3d, as Graphviz draws it: a box with a raised top and right side
    const double d = 4;
    QRectF front = rect_.adjusted(0, d, -d, 0);
    QPolygonF side({front.topLeft(), front.topLeft() + QPointF(d, -d), rect_.topRight(),
                    rect_.bottomRight() - QPointF(0, d), front.bottomRight(), front.topRight()});
    p->drawPolygon(side);
    p->drawRect(front);
    p->drawLine(front.topRight(), rect_.topRight());
  } else if (rounded_) {
    p->drawRoundedRect(rect_, 6, 6);
  } else {
    p->drawRect(rect_);
  }
  p->setPen(font_color_);
  p->setFont(labelFont());
  p->drawText(label_room(collapsed_ ? rect_.adjusted(0, 4, -4, 0) : rect_, oval_), Qt::AlignCenter, label_);
}

QFont GraphNodeItem::labelFont() const {
  return layout_font(font_size_, label_,
                     label_room(collapsed_ ? rect_.adjusted(0, 4, -4, 0) : rect_, oval_).size());
}

QRectF GraphNodeItem::labelRect() const {
  const QRectF room = label_room(collapsed_ ? rect_.adjusted(0, 4, -4, 0) : rect_, oval_);
  return QFontMetricsF(labelFont()).boundingRect(room, Qt::AlignCenter, label_);
}

GraphClusterItem::GraphClusterItem(const graphs::LaidOutCluster& cluster, Toggle toggle)
    : path_(cluster.module_path),
      label_(QString::fromStdString(cluster.label)),
      rect_(to_rect(cluster.box)),
      header_(rect_.left(), rect_.top(), rect_.width(),
              std::max(16.0, cluster.label_box.y + cluster.label_box.height - rect_.top())),
      fill_(layout_color(cluster.fill, QColor(0xf7, 0xf7, 0xf7))),
      border_(layout_color(cluster.border, QColor(0xaa, 0xaa, 0xaa))),
      font_size_(cluster.font_size),
      dashed_(has_style(cluster.style, "dashed")),
      dotted_(has_style(cluster.style, "dotted")),
      toggle_(std::move(toggle)) {
  setToolTip(
      QStringLiteral("%1\nclick the header to collapse").arg(QString::fromStdString(cluster.module_path)));
  setZValue(cluster.depth * 0.01);
}

void GraphClusterItem::setHighlighted(bool on) {
  if (highlighted_ == on) return;
  highlighted_ = on;
  update();
}

QRectF GraphClusterItem::boundingRect() const {
  return rect_.adjusted(-3, -3, 3, 3);
}

void GraphClusterItem::paint(QPainter* p, const QStyleOptionGraphicsItem*, QWidget*) {
  QPen pen = highlighted_ ? QPen(kHalo, 3) : QPen(border_, dotted_ ? 2 : 1);
  if (dashed_ && !highlighted_) pen.setStyle(Qt::DashLine);
  if (dotted_ && !highlighted_) pen.setStyle(Qt::DotLine);
  p->setBrush(fill_);
  p->setPen(pen);
  p->drawRoundedRect(rect_, 6, 6);
  p->setPen(QColor(0, 0, 0));
  const QString title = QStringLiteral("\u25be ") + label_;
  const QRectF band = header_.adjusted(6, 0, -6, 0);
  p->setFont(layout_font(font_size_, title, band.size()));
  p->drawText(band, Qt::AlignLeft | Qt::AlignVCenter, title);
}

void GraphClusterItem::mousePressEvent(QGraphicsSceneMouseEvent* event) {
  if (event->button() == Qt::LeftButton && header_.contains(event->pos()) && toggle_) {
    event->accept();
    toggle_(path_);  // queued by the page: the scene is rebuilt after this returns
    return;
  }
  QGraphicsItem::mousePressEvent(event);
}

QPainterPath edge_path(const graphs::LaidOutEdge& edge) {
  QPainterPath path;
  if (edge.points.empty()) return path;
  path.moveTo(edge.points[0].x, edge.points[0].y);
  for (std::size_t i = 1; i + 2 < edge.points.size(); i += 3) {
    const auto& a = edge.points[i];
    const auto& b = edge.points[i + 1];
    const auto& c = edge.points[i + 2];
    path.cubicTo(a.x, a.y, b.x, b.y, c.x, c.y);
  }
  return path;
}

QPainterPath arrow_head(const graphs::LaidOutEdge& edge) {
  QPainterPath path;
  if (!edge.arrow_tip || edge.points.empty()) return path;
  const QPointF tip(edge.arrow_tip->x, edge.arrow_tip->y);
  const QPointF base(edge.points.back().x, edge.points.back().y);
  QPointF along = tip - base;
  const double length = std::hypot(along.x(), along.y());
  if (length <= 0) return path;
  // Graphviz's "normal" arrow: as wide as 0.35 of its length on each side.
  const QPointF across(-along.y() * 0.35, along.x() * 0.35);
  path.addPolygon(QPolygonF({tip, base + across, base - across, tip}));
  return path;
}

}  // namespace flopscope::gui
