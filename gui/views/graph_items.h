// Graphics items of the graph view: node boxes, module cluster boxes (click the header to collapse or
// expand) and edges.
#pragma once

#include <QBrush>
#include <QGraphicsItem>
#include <QPen>
#include <functional>
#include <string>

#include "gui/models/graph_layout.h"

namespace flopscope::gui {

class GraphNodeItem : public QGraphicsItem {
 public:
  using Action = std::function<void(const std::string& module_path)>;
  GraphNodeItem(int index, const GraphLayoutNode& node);

  // click: select the node's module; expand: double-click on a collapsed module node.
  void setActions(Action click, Action expand);

  int index() const { return index_; }
  const std::string& modulePath() const { return module_path_; }
  void setFill(const QColor& fill);
  QColor fill() const { return fill_; }
  void setStatus(DiffStatus status, bool show_diff);
  void setHighlighted(bool on);
  bool isHighlighted() const { return highlighted_; }

  QRectF boundingRect() const override;
  void paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget* widget) override;

 protected:
  void mousePressEvent(QGraphicsSceneMouseEvent* event) override;
  void mouseDoubleClickEvent(QGraphicsSceneMouseEvent* event) override;

 private:
  Action click_, expand_;
  int index_;
  std::string module_path_;
  QString label_;
  QRectF rect_;
  QColor fill_ = Qt::white;
  DiffStatus status_ = DiffStatus::kSame;
  bool show_diff_ = false;
  bool collapsed_ = false;
  bool highlighted_ = false;
};

class GraphClusterItem : public QGraphicsItem {
 public:
  using Toggle = std::function<void(const std::string& path)>;
  GraphClusterItem(const GraphLayoutCluster& cluster, Toggle toggle);

  const std::string& path() const { return path_; }
  void setHighlighted(bool on);
  bool isHighlighted() const { return highlighted_; }

  QRectF boundingRect() const override;
  void paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget* widget) override;

 protected:
  void mousePressEvent(QGraphicsSceneMouseEvent* event) override;

 private:
  std::string path_;
  QString label_;
  QRectF rect_;
  int depth_;
  Toggle toggle_;
  bool highlighted_ = false;
};

// Edge from the bottom of one node to the top of another, as a smooth curve with an arrow head.
QPainterPath edge_path(const QRectF& from, const QRectF& to);

}  // namespace flopscope::gui
