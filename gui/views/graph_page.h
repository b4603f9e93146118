// Graph page: the computation graph as interactive items (pan by dragging, zoom with the wheel, click a
// cluster header to collapse it, double-click a module box to expand it), coloured by FLOPs, time or
// bytes, or by diff status in diff mode; exports PDF/SVG/PNG. The picture is graphs/'s: collapse() builds
// the view, layout_view() places it with Graphviz exactly as `flopscope graph` does, and the items only
// draw those coordinates and colours.
#pragma once

#include <QGraphicsView>
#include <QWidget>
#include <set>
#include <string>

#include "db/model/status.h"
#include "graphs/collapse.h"
#include "graphs/dot_writer.h"
#include "graphs/graph_layout.h"
#include "gui/models/session.h"

class QComboBox;
class QGraphicsScene;
class QLabel;

namespace flopscope::gui {

class GraphNodeItem;
class GraphClusterItem;

// Wheel zooms around the cursor; dragging pans.
class ZoomableView : public QGraphicsView {
  Q_OBJECT

 public:
  explicit ZoomableView(QGraphicsScene* scene, QWidget* parent = nullptr);

 protected:
  void wheelEvent(QWheelEvent* event) override;
};

class GraphPage : public QWidget {
  Q_OBJECT

 public:
  enum class ColorMode { kPlain, kFlops, kTime, kBytes, kDiff };

  explicit GraphPage(QWidget* parent = nullptr);
  void setSession(SessionPtr session);

  void setColorMode(ColorMode mode);
  ColorMode colorMode() const { return mode_; }
  void toggleCluster(const std::string& path);
  void expandAll();
  Status exportTo(const QString& path);
  // The whole graph, or where that would shrink labels below kMinReadableZoom, that zoom from the top.
  void fit();
  static constexpr double kMinReadableZoom = 0.5;  // 10 px labels read as 5 px
  void showTop();  // legible zoom: on the changes in diff mode, else from the inputs down
  // Diff mode: zooms (100-150%) to the nodes that changed and the DORMANT modules; false when none.
  bool fitChanges();

  QGraphicsScene* scene() const { return scene_; }
  ZoomableView* view() const { return view_; }
  const graphs::ViewGraph& viewGraph() const { return view_graph_; }
  const graphs::GraphLayout& layout() const { return layout_; }
  const std::set<std::string>& collapsedModules() const { return collapsed_; }
  // What the page asks the DOT writer for in the current colour mode.
  graphs::DotOptions dotOptions() const;
  // The modules collapsed so that at most max_nodes are drawn: whole depths, deepest first (graphs/).
  static std::set<std::string> defaultCollapsed(const graphs::OpGraph& graph,
                                                std::size_t max_nodes = graphs::kDefaultMaxNodes);
  const std::vector<GraphNodeItem*>& nodeItems() const { return nodes_; }
  int highlightedNodeCount() const;
  QString infoText() const;  // the line above the graph: counts, or why there is no picture
  QString highlightedModule() const { return highlighted_; }
  QString message() const;  // the line beside the buttons: node counts, or why there is no graph

 public Q_SLOTS:
  void highlightModule(const QString& path);

 Q_SIGNALS:
  void moduleClicked(const QString& path);

 protected:
  // The first showing after a new session zooms again: before it the viewport has no real size.
  void showEvent(QShowEvent* event) override;

 private:
  double startX(const QRectF& bounds, double s) const;
  void rebuild();
  bool zoom_pending_ = false;
  int nodeForModule(const std::string& path) const;  // the collapsed box holding path, or -1

  SessionPtr session_;
  std::set<std::string> collapsed_;
  graphs::ViewGraph view_graph_;
  graphs::GraphLayout layout_;
  ColorMode mode_ = ColorMode::kFlops;
  QString highlighted_;
  QGraphicsScene* scene_;
  ZoomableView* view_;
  QComboBox* color_box_;
  QLabel* info_;
  std::vector<GraphNodeItem*> nodes_;
  std::vector<GraphClusterItem*> clusters_;
};

}  // namespace flopscope::gui
