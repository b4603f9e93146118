// Graphics items of the graph view, drawn where graphs/graph_layout (Graphviz `dot`) placed them and in
// the colours the DOT writer chose: node boxes, module cluster boxes (click the header to collapse or
// expand) and edges.
#pragma once

#include <QBrush>
#include <QFont>
#include <QGraphicsItem>
#include <QPainterPath>
#include <QPen>
#include <functional>
#include <string>

#include "graphs/collapse.h"
#include "graphs/graph_layout.h"

namespace flopscope::gui {

class GraphNodeItem : public QGraphicsItem {
 public:
  using Action = std::function<void(const std::string& module_path)>;
  GraphNodeItem(int index, const graphs::LaidOutNode& node, const graphs::ViewNode& view_node);

  // click: select the node's module; expand: double-click on a collapsed module node.
  void setActions(Action click, Action expand);

  int index() const { return index_; }
  const std::string& modulePath() const { return module_path_; }
  QColor fill() const { return fill_; }
  QColor border() const { return border_; }
  QString label() const { return label_; }
  QRectF nodeRect() const { return rect_; }
  // Where paint draws the label and the font it draws it in: inside the node's border.
  QRectF labelRect() const;
  QFont labelFont() const;
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
  QColor fill_, border_, font_color_;
  double pen_width_;
  double font_size_;
  bool dashed_;
  bool dotted_;  // DORMANT modules (graphs/dot_writer)
  bool rounded_;
  bool oval_;
  bool collapsed_;  // a collapsed module (box3d)
  bool highlighted_ = false;
};

class GraphClusterItem : public QGraphicsItem {
 public:
  using Toggle = std::function<void(const std::string& path)>;
  GraphClusterItem(const graphs::LaidOutCluster& cluster, Toggle toggle);

  const std::string& path() const { return path_; }
  QRectF rect() const { return rect_; }
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
  QRectF header_;  // the label's band: clicking it collapses the module
  QColor fill_, border_;
  double font_size_;
  bool dashed_;
  bool dotted_;  // DORMANT modules (graphs/dot_writer)
  Toggle toggle_;
  bool highlighted_ = false;
};

// An edge's Bezier spline as Graphviz routed it, and its arrow head (a filled triangle).
QPainterPath edge_path(const graphs::LaidOutEdge& edge);
QPainterPath arrow_head(const graphs::LaidOutEdge& edge);

// "#rrggbb" from the layout; `fallback` when empty or not a colour.
QColor layout_color(const std::string& name, const QColor& fallback);

}  // namespace flopscope::gui
