#include "gui/views/graph_page.h"

#include <QComboBox>
#include <QFileDialog>
#include <QGraphicsPathItem>
#include <QGraphicsScene>
#include <QHBoxLayout>
#include <QLabel>
#include <QMessageBox>
#include <QPushButton>
#include <QTimer>
#include <QVBoxLayout>
#include <QWheelEvent>
#include <cmath>

#include "gui/models/colors.h"
#include "gui/views/export.h"
#include "gui/views/graph_items.h"

namespace flopscope::gui {

ZoomableView::ZoomableView(QGraphicsScene* scene, QWidget* parent) : QGraphicsView(scene, parent) {
  setDragMode(QGraphicsView::ScrollHandDrag);
  setRenderHint(QPainter::Antialiasing);
  setTransformationAnchor(QGraphicsView::AnchorUnderMouse);
  setViewportUpdateMode(QGraphicsView::SmartViewportUpdate);
}

void ZoomableView::wheelEvent(QWheelEvent* event) {
  double factor = std::pow(1.0015, event->angleDelta().y());
  double current = transform().m11();
  if (current * factor < 0.02 || current * factor > 8) return;
  scale(factor, factor);
  event->accept();
}

GraphPage::GraphPage(QWidget* parent)
    : QWidget(parent), scene_(new QGraphicsScene(this)), view_(new ZoomableView(scene_, this)),
      color_box_(new QComboBox(this)), info_(new QLabel(this)) {
  color_box_->addItem(tr("Plain"), static_cast<int>(ColorMode::kPlain));
  color_box_->addItem(tr("Heat: FLOPs"), static_cast<int>(ColorMode::kFlops));
  color_box_->addItem(tr("Heat: time"), static_cast<int>(ColorMode::kTime));
  color_box_->addItem(tr("Heat: bytes"), static_cast<int>(ColorMode::kBytes));
  color_box_->addItem(tr("Diff status"), static_cast<int>(ColorMode::kDiff));
  color_box_->setCurrentIndex(1);
  connect(color_box_, &QComboBox::currentIndexChanged, this,
          [this](int i) { setColorMode(static_cast<ColorMode>(color_box_->itemData(i).toInt())); });
  auto* expand = new QPushButton(tr("Expand all"), this);
  connect(expand, &QPushButton::clicked, this, &GraphPage::expandAll);
  auto* collapse = new QPushButton(tr("Collapse"), this);
  connect(collapse, &QPushButton::clicked, this, [this] {
    if (!session_) return;
    collapsed_ = default_collapsed(session_->graph, 60);
    rebuild();
  });
  auto* fit_button = new QPushButton(tr("Fit"), this);
  connect(fit_button, &QPushButton::clicked, this, &GraphPage::fit);
  auto* export_button = new QPushButton(tr("Export\u2026"), this);
  connect(export_button, &QPushButton::clicked, this, [this] {
    QString path = QFileDialog::getSaveFileName(this, tr("Export graph"), QStringLiteral("graph.pdf"),
                                                tr("PDF (*.pdf);;SVG (*.svg);;PNG (*.png)"));
    if (path.isEmpty()) return;
    Status s = exportTo(path);
    if (!s.ok()) QMessageBox::warning(this, tr("Export failed"), QString::fromStdString(s.message()));
  });
  // The message (node counts, or why there is no graph, which can name long paths) wraps under the
  // buttons' row width instead of setting the window's minimum width.
  info_->setWordWrap(true);
  info_->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
  info_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  auto* bar = new QHBoxLayout;
  bar->addWidget(new QLabel(tr("Colour:"), this));
  bar->addWidget(color_box_);
  bar->addWidget(expand);
  bar->addWidget(collapse);
  bar->addWidget(fit_button);
  bar->addWidget(export_button);
  bar->addWidget(info_, 1);
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(4, 4, 4, 4);
  layout->addLayout(bar);
  layout->addWidget(view_);
}

void GraphPage::setSession(SessionPtr session) {
  session_ = std::move(session);
  highlighted_.clear();
  collapsed_.clear();
  if (session_)
    collapsed_ = default_collapsed(session_->graph);
  const ColorMode mode = session_ && session_->is_diff() ? ColorMode::kDiff : ColorMode::kFlops;
  mode_ = mode;
  color_box_->blockSignals(true);
  color_box_->setCurrentIndex(color_box_->findData(static_cast<int>(mode)));
  color_box_->blockSignals(false);
  rebuild();
  showTop();
}

void GraphPage::toggleCluster(const std::string& path) {
  if (!collapsed_.erase(path)) collapsed_.insert(path);
  rebuild();
}

void GraphPage::expandAll() {
  collapsed_.clear();
  rebuild();
}

void GraphPage::fit() {
  if (scene_->items().isEmpty()) return;
  view_->fitInView(scene_->itemsBoundingRect().adjusted(-10, -10, 10, 10), Qt::KeepAspectRatio);
}

void GraphPage::showTop() {
  if (scene_->items().isEmpty()) return;
  // Legible first: fit the width (never above 100% nor below 50%), starting at the graph's inputs.
  const QRectF bounds = scene_->itemsBoundingRect();
  double s = std::clamp((view_->viewport()->width() - 20) / std::max(bounds.width(), 1.0), 0.5, 1.0);
  if (bounds.height() * s < view_->viewport()->height()) {
    fit();
    if (view_->transform().m11() > 1.0) view_->resetTransform();
    return;
  }
  view_->resetTransform();
  view_->scale(s, s);
  view_->centerOn(bounds.center().x(), bounds.top() + view_->viewport()->height() / (2 * s) - 10);
}

void GraphPage::rebuild() {
  scene_->clear();
  nodes_.clear();
  clusters_.clear();
  if (!session_) return;
  if (session_->graph.nodes.empty()) {
    QString why = session_->a->graph_note;
    info_->setText(why.isEmpty() ? tr("This run has no computation graph (runs imported from traces carry none).")
                                 : tr("No computation graph: %1").arg(why));
    info_->setToolTip(info_->text());
    return;
  }
  layout_ = layout_graph(session_->graph, collapsed_);
  // Cluster and node actions rebuild the scene: queue them so the clicked item is not deleted under itself.
  auto queue = [this](auto fn) {
    return [this, fn](const std::string& path) { QTimer::singleShot(0, this, [fn, path] { fn(path); }); };
  };
  auto toggle = queue([this](const std::string& path) { toggleCluster(path); });
  for (const auto& c : layout_.clusters) {
    auto* item = new GraphClusterItem(c, toggle);
    scene_->addItem(item);
    clusters_.push_back(item);
  }
  for (const auto& e : layout_.edges) {
    QPen pen(QColor(110, 110, 110), 1.2);
    if (mode_ == ColorMode::kDiff && e.status != DiffStatus::kSame) {
      pen = QPen(status_color(e.status), 1.6);
      if (e.status == DiffStatus::kVanished) pen.setStyle(Qt::DashLine);
    }
    auto* item = scene_->addPath(edge_path(layout_.nodes[e.src].rect, layout_.nodes[e.dst].rect), pen);
    item->setZValue(1);
  }
  for (std::size_t i = 0; i < layout_.nodes.size(); ++i) {
    auto* item = new GraphNodeItem(static_cast<int>(i), layout_.nodes[i]);
    item->setActions([this](const std::string& path) { Q_EMIT moduleClicked(QString::fromStdString(path)); }, toggle);
    scene_->addItem(item);
    nodes_.push_back(item);
  }
  scene_->setSceneRect(scene_->itemsBoundingRect().adjusted(-40, -40, 40, 40));
  int collapsed_nodes = 0;
  for (const auto& n : layout_.nodes) collapsed_nodes += n.collapsed ? 1 : 0;
  info_->setText(tr("%1 graph nodes, %2 drawn (%3 collapsed modules). Click a cluster header to collapse, "
                    "double-click a module box to expand.")
                     .arg(layout_.source_nodes)
                     .arg(layout_.nodes.size())
                     .arg(collapsed_nodes));
  applyColors();
  if (!highlighted_.isEmpty()) highlightModule(highlighted_);
}

void GraphPage::setColorMode(ColorMode mode) {
  const bool edges_change = (mode == ColorMode::kDiff) != (mode_ == ColorMode::kDiff);
  mode_ = mode;
  int i = color_box_->findData(static_cast<int>(mode));
  if (i != color_box_->currentIndex()) {
    color_box_->blockSignals(true);
    color_box_->setCurrentIndex(i);
    color_box_->blockSignals(false);
  }
  if (edges_change)
    rebuild();
  else
    applyColors();
}

void GraphPage::applyColors() {
  auto value = [&](const GraphLayoutNode& n) {
    switch (mode_) {
      case ColorMode::kFlops: return n.flops;
      case ColorMode::kTime: return n.time_ns;
      case ColorMode::kBytes: return n.bytes;
      default: return 0.0;
    }
  };
  double max = 0;
  for (const auto& n : layout_.nodes) max = std::max(max, value(n));
  for (auto* item : nodes_) {
    const auto& n = layout_.nodes[item->index()];
    QColor fill = Qt::white;
    if (mode_ == ColorMode::kDiff) {
      QColor c = status_color(n.status);
      fill = c.isValid() ? QColor::fromHslF(c.hslHueF(), 0.7, 0.9) : QColor(Qt::white);
    } else if (mode_ != ColorMode::kPlain && max > 0) {
      double v = value(n);
      // Log scale over three decades below the hottest node.
      fill = v > 0 ? heat_color(1 + std::log10(v / max) / 3) : QColor(240, 240, 240);
    }
    item->setFill(fill);
    item->setStatus(n.status, mode_ == ColorMode::kDiff);
  }
}

void GraphPage::highlightModule(const QString& path) {
  highlighted_ = path;
  const std::string p = path.toStdString();
  auto inside = [&](const std::string& m) {
    return m == p || p.empty() || (m.size() > p.size() && m.compare(0, p.size(), p) == 0 && m[p.size()] == '.');
  };
  GraphNodeItem* first = nullptr;
  for (auto* item : nodes_) {
    bool on = !path.isEmpty() && inside(item->modulePath());
    item->setHighlighted(on);
    if (on && !first) first = item;
  }
  if (!first && !path.isEmpty()) {  // inside a collapsed module: highlight its box
    int i = layout_.find_node_for_module(p);
    if (i >= 0) {
      nodes_[i]->setHighlighted(true);
      first = nodes_[i];
    }
  }
  for (auto* c : clusters_) c->setHighlighted(!path.isEmpty() && c->path() == p);
  if (first) view_->centerOn(first);
}

int GraphPage::highlightedNodeCount() const {
  int n = 0;
  for (auto* item : nodes_) n += item->isHighlighted() ? 1 : 0;
  return n;
}

QString GraphPage::message() const { return info_->text(); }

Status GraphPage::exportTo(const QString& path) { return export_scene(*scene_, path); }

}  // namespace flopscope::gui
