#include "gui/views/graph_page.h"

#include <QComboBox>
#include <QFileDialog>
#include <QGraphicsPathItem>
#include <QGraphicsScene>
#include <QGraphicsSimpleTextItem>
#include <QGraphicsTextItem>
#include <QHBoxLayout>
#include <QLabel>
#include <QMessageBox>
#include <QPushButton>
#include <QTextDocument>
#include <QTimer>
#include <QVBoxLayout>
#include <QWheelEvent>
#include <algorithm>
#include <cmath>
#include <map>

#include "graphs/graph_diff.h"
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
    : QWidget(parent),
      scene_(new QGraphicsScene(this)),
      view_(new ZoomableView(scene_, this)),
      color_box_(new QComboBox(this)),
      info_(new QLabel(this)) {
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
    collapsed_ = defaultCollapsed(session_->graph, 60);
    rebuild();
    fit();  // the smaller graph, whole
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
  if (session_) collapsed_ = defaultCollapsed(session_->graph);
  const ColorMode mode = session_ && session_->is_diff() ? ColorMode::kDiff : ColorMode::kFlops;
  mode_ = mode;
  color_box_->blockSignals(true);
  color_box_->setCurrentIndex(color_box_->findData(static_cast<int>(mode)));
  color_box_->blockSignals(false);
  rebuild();
  showTop();
  zoom_pending_ = !isVisible();
}

void GraphPage::showEvent(QShowEvent* event) {
  QWidget::showEvent(event);
  if (!zoom_pending_) return;
  zoom_pending_ = false;
  QTimer::singleShot(0, this, &GraphPage::showTop);  // after the layout has sized the view
}

void GraphPage::toggleCluster(const std::string& path) {
  if (!collapsed_.erase(path)) collapsed_.insert(path);
  rebuild();
}

void GraphPage::expandAll() {
  collapsed_.clear();
  rebuild();
}

// Where a view at zoom s starts across: the middle of a graph that fits the width, else its left edge, where
// the title is and where a trace's graph starts (its modules run down a diagonal, its middle is empty).
double GraphPage::startX(const QRectF& bounds, double s) const {
  const double half = view_->viewport()->width() / (2 * s);
  return bounds.width() > 2 * half ? bounds.left() + half : bounds.center().x();
}

void GraphPage::fit() {
  if (scene_->items().isEmpty()) return;
  const QRectF bounds = scene_->itemsBoundingRect().adjusted(-10, -10, 10, 10);
  view_->fitInView(bounds, Qt::KeepAspectRatio);
  // A long graph fitted whole is a strip of specks: below the smallest zoom whose labels still read, keep
  // that zoom and scroll, from the graph's inputs at the top.
  if (view_->transform().m11() >= kMinReadableZoom) return;
  view_->resetTransform();
  view_->scale(kMinReadableZoom, kMinReadableZoom);
  view_->centerOn(startX(bounds, kMinReadableZoom),
                  bounds.top() + view_->viewport()->height() / (2 * kMinReadableZoom));
}

bool GraphPage::fitChanges() {
  if (!session_ || !session_->is_diff()) return false;
  // The changed nodes and dormant modules, grouped by module; the first group in reading order (top, then
  // left) is shown with its frame: one change legible beats all of them as specks.
  std::map<std::string, QRectF> groups;
  for (std::size_t i = 0; i < nodes_.size() && i < view_graph_.nodes.size(); ++i) {
    const auto& n = view_graph_.nodes[i];
    if (n.diff != DiffStatus::kUnchanged || (n.is_module && view_graph_.dormant_modules.count(n.module_path)))
      groups[n.module_path] |= nodes_[i]->sceneBoundingRect();
  }
  for (auto* c : clusters_) {
    auto g = groups.find(c->path());
    if (g != groups.end() || view_graph_.dormant_modules.count(c->path()))
      groups[c->path()] |= c->sceneBoundingRect();
  }
  if (groups.empty()) return false;
  QRectF changed = groups.begin()->second;
  for (const auto& [path, r] : groups)
    if (r.top() < changed.top() - 1 || (std::abs(r.top() - changed.top()) <= 1 && r.left() < changed.left()))
      changed = r;
  changed.adjust(-30, -30, 30, 30);
  // Legible: 100% to 150% (the labels' 10 px or more; at 80% they read as 8 px in a real window), the
  // changes centred, or their top when they do not fit.
  const QSize vp = view_->viewport()->size();
  const double s =
      std::clamp(std::min(vp.width() / changed.width(), vp.height() / changed.height()), 1.0, 1.5);
  view_->resetTransform();
  view_->scale(s, s);
  if (changed.height() * s <= vp.height())
    view_->centerOn(changed.center());
  else
    view_->centerOn(changed.center().x(), changed.top() + vp.height() / (2 * s));
  return true;
}

void GraphPage::showTop() {
  if (scene_->items().isEmpty()) return;
  if (fitChanges()) return;
  // Legible first: fit the width (never above 100% nor below 50%), starting at the graph's inputs.
  const QRectF bounds = scene_->itemsBoundingRect();
  double s =
      std::clamp((view_->viewport()->width() - 20) / std::max(bounds.width(), 1.0), kMinReadableZoom, 1.0);
  if (bounds.height() * s < view_->viewport()->height()) {
    fit();
    if (view_->transform().m11() > 1.0) view_->resetTransform();
    return;
  }
  view_->resetTransform();
  view_->scale(s, s);
  view_->centerOn(startX(bounds, s), bounds.top() + view_->viewport()->height() / (2 * s) - 10);
}

std::set<std::string> GraphPage::defaultCollapsed(const graphs::OpGraph& graph, std::size_t max_nodes) {
  return graphs::modules_at_depth(graph, graphs::choose_depth(graph, max_nodes));
}

graphs::DotOptions GraphPage::dotOptions() const {
  graphs::DotOptions o;
  o.diff_colors = mode_ == ColorMode::kDiff;
  switch (mode_) {
    case ColorMode::kPlain:
      o.color_by.reset();
      break;
    case ColorMode::kTime:
      o.color_by = graphs::CostMetric::kTime;
      break;
    case ColorMode::kBytes:
      o.color_by = graphs::CostMetric::kBytes;
      break;
    case ColorMode::kFlops:
    case ColorMode::kDiff:
      o.color_by = graphs::CostMetric::kFlops;
      break;
  }
  o.relative_threshold = graphs::changed_threshold(o.color_by.value_or(graphs::CostMetric::kFlops));
  return o;
}

void GraphPage::rebuild() {
  scene_->clear();
  nodes_.clear();
  clusters_.clear();
  view_graph_ = {};
  layout_ = {};
  if (!session_) return;
  if (session_->graph.nodes.empty()) {
    QString why = session_->a->graph_note;
    info_->setText(why.isEmpty() ? tr("This run has no computation graph and no ops to draw one from.")
                                 : tr("No computation graph: %1").arg(why));
    info_->setToolTip(info_->text());
    return;
  }
  view_graph_ = graphs::collapse(session_->graph, collapsed_);
  auto laid_out = graphs::layout_view(view_graph_, dotOptions());
  if (!laid_out.ok()) {  // e.g. a build without Graphviz: one line, no picture
    info_->setText(QString::fromStdString(laid_out.status().message()).simplified());
    return;
  }
  layout_ = std::move(*laid_out);
  // Cluster and node actions rebuild the scene: queue them so the clicked item is not deleted under itself.
  auto queue = [this](auto fn) {
    return [this, fn](const std::string& path) { QTimer::singleShot(0, this, [fn, path] { fn(path); }); };
  };
  auto toggle = queue([this](const std::string& path) { toggleCluster(path); });
  if (!layout_.title.empty()) {
    QFont font(QStringLiteral("Helvetica"));
    font.setPixelSize(static_cast<int>(std::lround(layout_.title_font_size)));
    auto* title = scene_->addSimpleText(QString::fromStdString(layout_.title), font);
    title->setPos(layout_.title_box.x, layout_.title_box.y);
  }
  if (!layout_.legend_html.empty()) {  // the DOT writer's legend table, where Graphviz put it
    auto* legend = scene_->addText(QString());
    QFont font(QStringLiteral("Helvetica"));
    font.setPixelSize(10);
    legend->setFont(font);
    legend->document()->setDocumentMargin(0);
    legend->setHtml(QString::fromStdString(layout_.legend_html));
    // Qt's table layout runs larger than Graphviz's: shrink it into the box Graphviz left for it.
    const QRectF drawn = legend->boundingRect();
    if (drawn.width() > 0 && drawn.height() > 0)
      legend->setScale(std::min(
          {1.0, layout_.legend_box.width / drawn.width(), layout_.legend_box.height / drawn.height()}));
    legend->setPos(layout_.legend_box.x, layout_.legend_box.y);
  }
  for (const auto& c : layout_.clusters) {
    auto* item = new GraphClusterItem(c, toggle);
    scene_->addItem(item);
    clusters_.push_back(item);
  }
  for (const auto& e : layout_.edges) {
    QColor color = layout_color(e.color, QColor(0x7f, 0x7f, 0x7f));
    QPen pen(color, e.pen_width);
    if (e.style.find("dashed") != std::string::npos) pen.setStyle(Qt::DashLine);
    scene_->addPath(edge_path(e), pen)->setZValue(1);
    scene_->addPath(arrow_head(e), QPen(color, e.pen_width), QBrush(color))->setZValue(1);
  }
  for (std::size_t i = 0; i < layout_.nodes.size(); ++i) {
    auto* item = new GraphNodeItem(static_cast<int>(i), layout_.nodes[i], view_graph_.nodes[i]);
    item->setActions([this](const std::string& path) { Q_EMIT moduleClicked(QString::fromStdString(path)); },
                     toggle);
    scene_->addItem(item);
    nodes_.push_back(item);
  }
  scene_->setSceneRect(scene_->itemsBoundingRect().adjusted(-40, -40, 40, 40));
  int collapsed_nodes = 0;
  for (const auto& n : view_graph_.nodes) collapsed_nodes += n.is_module ? 1 : 0;
  info_->setText(tr("%1 graph nodes, %2 drawn (%3 collapsed modules). Click a cluster header to collapse, "
                    "double-click a module box to expand.")
                     .arg(session_->graph.nodes.size())
                     .arg(view_graph_.nodes.size())
                     .arg(collapsed_nodes));
  if (session_->is_diff() && view_graph_.has_costs)
    info_->setText(info_->text() + tr(" Costs on nodes are run B's (run A's on VANISHED nodes)."));
  if (!highlighted_.isEmpty()) highlightModule(highlighted_);
}

void GraphPage::setColorMode(ColorMode mode) {
  mode_ = mode;
  int i = color_box_->findData(static_cast<int>(mode));
  if (i != color_box_->currentIndex()) {
    color_box_->blockSignals(true);
    color_box_->setCurrentIndex(i);
    color_box_->blockSignals(false);
  }
  rebuild();  // colours and the cost lines in the labels come from the DOT writer, so the layout is redone
}

int GraphPage::nodeForModule(const std::string& path) const {
  for (std::size_t i = 0; i < view_graph_.nodes.size(); ++i) {
    const auto& n = view_graph_.nodes[i];
    const auto& m = n.module_path;
    if (n.is_module && path.size() > m.size() && path.compare(0, m.size(), m) == 0 && path[m.size()] == '.')
      return static_cast<int>(i);
  }
  return -1;
}

void GraphPage::highlightModule(const QString& path) {
  highlighted_ = path;
  const std::string p = path.toStdString();
  auto inside = [&](const std::string& m) {
    return m == p || p.empty() ||
           (m.size() > p.size() && m.compare(0, p.size(), p) == 0 && m[p.size()] == '.');
  };
  GraphNodeItem* first = nullptr;
  for (auto* item : nodes_) {
    bool on = !path.isEmpty() && inside(item->modulePath());
    item->setHighlighted(on);
    if (on && !first) first = item;
  }
  if (!first && !path.isEmpty()) {  // inside a collapsed module: highlight its box
    int i = nodeForModule(p);
    if (i >= 0) {
      nodes_[i]->setHighlighted(true);
      first = nodes_[i];
    }
  }
  for (auto* c : clusters_) c->setHighlighted(!path.isEmpty() && c->path() == p);
  if (first) view_->centerOn(first);
}

QString GraphPage::infoText() const {
  return info_->text();
}

int GraphPage::highlightedNodeCount() const {
  int n = 0;
  for (auto* item : nodes_) n += item->isHighlighted() ? 1 : 0;
  return n;
}

QString GraphPage::message() const {
  return info_->text();
}

Status GraphPage::exportTo(const QString& path) {
  return export_scene(*scene_, path);
}

}  // namespace flopscope::gui
