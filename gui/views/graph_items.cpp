#include "gui/views/graph_items.h"

#include <QGraphicsSceneMouseEvent>
#include <QPainter>
#include <QStyleOptionGraphicsItem>

#include "gui/models/colors.h"

namespace flopscope::gui {

namespace {

constexpr double kHeaderH = 20;

bool is_dark(const QColor& c) { return c.lightnessF() < 0.5; }

}  // namespace

GraphNodeItem::GraphNodeItem(int index, const GraphLayoutNode& node)
    : index_(index),
      module_path_(node.module_path),
      label_(QString::fromStdString(node.label)),
      rect_(node.rect),
      collapsed_(node.collapsed) {
  setToolTip(QStringLiteral("%1\n%2%3")
                 .arg(QString::fromStdString(node.kind), QString::fromStdString(node.module_path),
                      node.status == DiffStatus::kSame ? QString()
                                                       : QStringLiteral("\n") + QString::fromLatin1(to_string(node.status)).toUpper()));
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

void GraphNodeItem::setFill(const QColor& fill) {
  if (fill_ == fill) return;
  fill_ = fill;
  update();
}

void GraphNodeItem::setStatus(DiffStatus status, bool show_diff) {
  status_ = status;
  show_diff_ = show_diff;
  update();
}

void GraphNodeItem::setHighlighted(bool on) {
  if (highlighted_ == on) return;
  highlighted_ = on;
  update();
}

QRectF GraphNodeItem::boundingRect() const { return rect_.adjusted(-6, -6, 6, 6); }

void GraphNodeItem::paint(QPainter* p, const QStyleOptionGraphicsItem*, QWidget*) {
  QPen pen(QColor(90, 90, 90), 1);
  if (show_diff_ && status_ != DiffStatus::kSame) {
    pen = QPen(status_color(status_), 2.5);
    if (status_ == DiffStatus::kVanished) pen.setStyle(Qt::DashLine);
  }
  if (highlighted_) {  // a halo around the node, so a diff border stays visible under the selection
    p->setPen(QPen(QColor(25, 118, 210), 3));
    p->setBrush(Qt::NoBrush);
    p->drawRoundedRect(rect_.adjusted(-3.5, -3.5, 3.5, 3.5), 10, 10);
  }
  p->setPen(pen);
  p->setBrush(fill_);
  p->drawRoundedRect(rect_, collapsed_ ? 2 : 8, collapsed_ ? 2 : 8);
  if (collapsed_) {  // a collapsed module: a double border
    p->setBrush(Qt::NoBrush);
    p->setPen(QPen(pen.color(), 1));
    p->drawRect(rect_.adjusted(3, 3, -3, -3));
  }
  p->setPen(is_dark(fill_) ? Qt::white : Qt::black);
  p->drawText(rect_, Qt::AlignCenter, label_);
}

GraphClusterItem::GraphClusterItem(const GraphLayoutCluster& cluster, Toggle toggle)
    : path_(cluster.path),
      label_(QString::fromStdString(cluster.label)),
      rect_(cluster.rect),
      depth_(cluster.depth),
      toggle_(std::move(toggle)) {
  setToolTip(QStringLiteral("%1\nclick the header to collapse").arg(QString::fromStdString(cluster.path)));
  setZValue(depth_ * 0.01);
}

void GraphClusterItem::setHighlighted(bool on) {
  if (highlighted_ == on) return;
  highlighted_ = on;
  update();
}

QRectF GraphClusterItem::boundingRect() const { return rect_.adjusted(-3, -3, 3, 3); }

void GraphClusterItem::paint(QPainter* p, const QStyleOptionGraphicsItem*, QWidget*) {
  const int shade = std::max(215, 250 - 7 * depth_);
  p->setBrush(QColor(shade, shade, std::min(255, shade + 5)));
  p->setPen(highlighted_ ? QPen(QColor(25, 118, 210), 3) : QPen(QColor(150, 150, 160), 1));
  p->drawRoundedRect(rect_, 6, 6);
  p->setPen(QColor(50, 50, 60));
  p->drawText(QRectF(rect_.left() + 8, rect_.top() + 2, rect_.width() - 16, kHeaderH), Qt::AlignLeft | Qt::AlignVCenter,
              QStringLiteral("\u25be ") + label_);
}

void GraphClusterItem::mousePressEvent(QGraphicsSceneMouseEvent* event) {
  if (event->button() == Qt::LeftButton && event->pos().y() <= rect_.top() + kHeaderH && toggle_) {
    event->accept();
    toggle_(path_);  // queued by the page: the scene is rebuilt after this returns
    return;
  }
  QGraphicsItem::mousePressEvent(event);
}

QPainterPath edge_path(const QRectF& from, const QRectF& to) {
  QPointF a(from.center().x(), from.bottom());
  QPointF b(to.center().x(), to.top());
  QPainterPath path(a);
  double dy = std::max(20.0, std::abs(b.y() - a.y()) / 2);
  path.cubicTo(a + QPointF(0, dy), b - QPointF(0, dy), b);
  // Arrow head.
  QPointF tip = b;
  path.moveTo(tip);
  path.lineTo(tip + QPointF(-4, -7));
  path.moveTo(tip);
  path.lineTo(tip + QPointF(4, -7));
  return path;
}

}  // namespace flopscope::gui
