#include "gui/views/heatmap_page.h"

#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QMessageBox>
#include <QMouseEvent>
#include <QPainter>
#include <QPushButton>
#include <QSpinBox>
#include <QToolTip>
#include <QVBoxLayout>

#include "analyzer/format.h"
#include "analyzer/heatmap.h"
#include "gui/models/roles.h"
#include "gui/views/export.h"

namespace flopscope::gui {

namespace {

QString iterations_text(int n) {
  return n == 1 ? QStringLiteral("1 iteration") : QStringLiteral("%1 iterations").arg(n);
}

}  // namespace

HeatmapWidget::HeatmapWidget(QWidget* parent) : QWidget(parent) {
  setMouseTracking(true);
  setMinimumSize(400, 300);
}

void HeatmapWidget::setHeatmap(HeatmapData heatmap, QString title) {
  data_ = std::move(heatmap);
  title_ = std::move(title);
  selected_ = data_.rows.empty() ? -1 : 0;
  update();
}

void HeatmapWidget::setSelectedRow(int row) {
  if (row < 0 || row >= static_cast<int>(data_.rows.size()) || row == selected_) return;
  selected_ = row;
  update();
  Q_EMIT rowSelected(QString::fromStdString(data_.rows[row].path));
}

void HeatmapWidget::setColumns(QString axis, QStringList labels, bool histogram, QString empty_text) {
  columns_.column_axis = std::move(axis);
  columns_.column_labels = std::move(labels);
  columns_.histogram = histogram;
  columns_.empty_text = std::move(empty_text);
  update();
}

HeatmapPaintOptions HeatmapWidget::options() const {
  HeatmapPaintOptions o = columns_;
  o.title = title_;
  o.selected_row = selected_;
  o.font = font();
  return o;
}

void HeatmapWidget::setMeasure(QString measure) {
  columns_.measure = std::move(measure);
  update();
}

QImage HeatmapWidget::render(const QSize& size) const {
  return render_heatmap_image(data_, size, options());
}

void HeatmapWidget::paintPicture(QPainter& painter, const QSize& size) const {
  paint_heatmap(painter, data_, HeatmapGeometry::compute(data_, size, font(), columns_.histogram), options());
}

void HeatmapWidget::paintEvent(QPaintEvent*) {
  QPainter p(this);
  p.fillRect(rect(), Qt::white);
  paint_heatmap(p, data_, HeatmapGeometry::compute(data_, size(), font(), columns_.histogram), options());
}

void HeatmapWidget::mouseMoveEvent(QMouseEvent* event) {
  auto [row, col] = HeatmapGeometry::compute(data_, size(), font(), columns_.histogram)
                        .cell_at(event->position().toPoint());
  if (row < 0) {
    QToolTip::hideText();
    return;
  }
  if (tooltips_) {
    QToolTip::showText(event->globalPosition().toPoint(),
                       tooltips_->index(row, col).data(Qt::ToolTipRole).toString(), this);
    return;
  }
  HeatmapModel m;
  m.setHeatmap(data_);
  QToolTip::showText(event->globalPosition().toPoint(), m.index(row, col).data(Qt::ToolTipRole).toString(),
                     this);
}

void HeatmapWidget::mousePressEvent(QMouseEvent* event) {
  auto [row, col] = HeatmapGeometry::compute(data_, size(), font(), columns_.histogram)
                        .cell_at(event->position().toPoint());
  if (row >= 0) setSelectedRow(row);
}

HeatmapPage::HeatmapPage(QWidget* parent)
    : QWidget(parent),
      model_(new HeatmapModel(this)),
      widget_(new HeatmapWidget(this)),
      widget_b_(new HeatmapWidget(this)),
      top_n_(new QSpinBox(this)),
      note_(new QLabel(this)),
      legend_(new QLabel(this)) {
  note_->setWordWrap(true);
  note_->hide();
  legend_->setWordWrap(true);
  legend_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  top_n_->setRange(1, 200);
  top_n_->setValue(20);
  top_n_->setPrefix(tr("top "));
  top_n_->setSuffix(tr(" modules"));
  connect(top_n_, &QSpinBox::valueChanged, this, &HeatmapPage::rebuild);
  auto* export_button = new QPushButton(tr("Export\u2026"), this);
  export_button->setToolTip(tr("PNG or SVG picture, or the matrix as CSV"));
  connect(export_button, &QPushButton::clicked, this, [this] {
    QString path = QFileDialog::getSaveFileName(this, tr("Export heatmap"), QStringLiteral("heatmap.png"),
                                                tr("PNG (*.png);;SVG (*.svg);;CSV matrix (*.csv)"));
    if (path.isEmpty()) return;
    Status s = exportTo(path);
    if (!s.ok()) QMessageBox::warning(this, tr("Export failed"), QString::fromStdString(s.message()));
  });
  connect(widget_, &HeatmapWidget::rowSelected, this, &HeatmapPage::moduleSelected);
  connect(widget_b_, &HeatmapWidget::rowSelected, this, &HeatmapPage::moduleSelected);
  // The two pictures of a diff select the same row.
  connect(widget_, &HeatmapWidget::rowSelected, this,
          [this] { widget_b_->setSelectedRow(widget_->selectedRow()); });
  connect(widget_b_, &HeatmapWidget::rowSelected, this,
          [this] { widget_->setSelectedRow(widget_b_->selectedRow()); });
  widget_b_->hide();
  auto* bar = new QHBoxLayout;
  bar->addWidget(new QLabel(tr("Self time per iteration of the"), this));
  bar->addWidget(top_n_);
  bar->addStretch(1);
  bar->addWidget(export_button);
  auto* pictures = new QHBoxLayout;
  pictures->addWidget(widget_, 1);
  pictures->addWidget(widget_b_, 1);
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(4, 4, 4, 4);
  layout->addLayout(bar);
  layout->addWidget(note_);
  layout->addLayout(pictures, 1);
  layout->addWidget(legend_);
}

QString HeatmapPage::legendText() const {
  return legend_->text();
}

QString HeatmapPage::noteText() const {
  return note_->isHidden() ? QString() : note_->text();
}

void HeatmapPage::setSession(SessionPtr session) {
  session_ = std::move(session);
  rebuild();
}

void HeatmapPage::rebuild() {
  if (!session_) return;
  const int iterations = session_->is_diff()
                             ? std::min(session_->a->summary.iterations, session_->b->summary.iterations)
                             : session_->a->summary.iterations;
  // With fewer iterations than a histogram needs, a column per iteration shows no variation: the colours
  // compare modules with each other, on the colour bar's scale, and the note says so (as the CLI's does).
  note_->setText(QString::fromStdString(few_iterations_note(iterations)));
  note_->setVisible(!note_->text().isEmpty());
  const auto top_n = static_cast<std::size_t>(top_n_->value());
  const QString name_a = QFileInfo(session_->a->path).fileName();
  if (session_->is_diff()) {
    pair_ = heatmap_pair(session_->a->summary, session_->b->summary, session_->clock(), top_n);
    model_->setHeatmap(pair_.a);
    widget_->setHeatmap(pair_.a, tr("A: %1 (%2)").arg(name_a, iterations_text(pair_.a.iterations)));
    widget_b_->setHeatmap(
        pair_.b, tr("B: %1 (%2), same rows and colour scale")
                     .arg(QFileInfo(session_->b->path).fileName(), iterations_text(pair_.b.iterations)));
    widget_b_->show();
    legend_->setText(QString::fromStdString(heatmap_legend(pair_.a)) + tr(" (one scale for A and B)"));
    return;
  }
  pair_ = {};
  widget_b_->hide();
  HeatmapData heatmap = session_->a->analysis.heatmap(top_n);  // what `flopscope heatmap` draws
  model_->setHeatmap(heatmap);
  legend_->setText(QString::fromStdString(heatmap_legend(heatmap)));
  QString title = tr("Latency heatmap: %1 (%2)").arg(name_a, iterations_text(heatmap.iterations));
  widget_->setHeatmap(std::move(heatmap), title);
}

Status HeatmapPage::exportTo(const QString& path) const {
  const QString ext = QFileInfo(path).suffix().toLower();
  const bool diff = session_ && session_->is_diff();
  if (ext == QLatin1String("csv")) {
    const std::string csv = diff ? heatmap_csv(pair_) : heatmap_csv(widget_->heatmap());
    return save_text(csv, path);
  }
  // Both runs side by side in diff mode, each at the size one run gets alone.
  const QSize one(diff ? 900 : 1400, 900);
  const QSize size(diff ? 2 * one.width() : one.width(), one.height());
  return save_painting(size, path, [&](QPainter& p) {
    widget_->paintPicture(p, one);
    if (diff) {
      p.translate(one.width(), 0);
      widget_b_->paintPicture(p, one);
    }
  });
}

void HeatmapPage::selectModule(const QString& path) {
  const auto& rows = widget_->heatmap().rows;
  for (std::size_t i = 0; i < rows.size(); ++i)
    if (QString::fromStdString(rows[i].path) == path) {
      for (HeatmapWidget* w : {widget_, widget_b_}) {
        w->blockSignals(true);
        w->setSelectedRow(static_cast<int>(i));
        w->blockSignals(false);
      }
    }
}

}  // namespace flopscope::gui
