#include "gui/views/roofline_page.h"

#include <QComboBox>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPainter>
#include <QSplitter>
#include <QSvgRenderer>
#include <QTableWidget>
#include <QVBoxLayout>
#include <algorithm>

#include "analyzer/format.h"
#include "gui/models/roles.h"
#include "gui/views/elide_delegate.h"

namespace flopscope::gui {

namespace {

QString q(const std::string& s) {
  return QString::fromStdString(s);
}

// A table cell that sorts by its number.
QTableWidgetItem* number_item(const std::string& text, double value) {
  auto* item = new QTableWidgetItem(q(text));
  item->setData(kSortRole, value);
  item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
  return item;
}

}  // namespace

SvgView::SvgView(QWidget* parent) : QWidget(parent), renderer_(new QSvgRenderer(this)) {
  setMinimumSize(300, 210);
}

void SvgView::setSvg(const QByteArray& svg) {
  renderer_->load(svg);
  update();
}

void SvgView::paintEvent(QPaintEvent*) {
  QPainter p(this);
  p.fillRect(rect(), Qt::white);
  if (!renderer_->isValid()) return;
  QSizeF size = renderer_->defaultSize();
  size.scale(QSizeF(width(), height()), Qt::KeepAspectRatio);
  p.setRenderHint(QPainter::Antialiasing);
  renderer_->render(&p, QRectF(QPointF((width() - size.width()) / 2, 0), size));
}

RooflinePage::RooflinePage(QWidget* parent)
    : QWidget(parent),
      run_(new RunSwitch(this)),
      caption_(new QLabel(this)),
      view_(new SvgView(this)),
      table_(new QTableWidget(this)) {
  connect(run_, &QComboBox::currentIndexChanged, this, &RooflinePage::rebuild);
  caption_->setWordWrap(true);
  caption_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  table_->setColumnCount(6);
  table_->setHorizontalHeaderLabels({tr("Module"), tr("FLOP/byte"), tr("Achieved FLOP/s"),
                                     tr("Of attainable"), tr("Self time"), tr("Bound")});
  table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
  table_->setSelectionBehavior(QAbstractItemView::SelectRows);
  table_->setSelectionMode(QAbstractItemView::SingleSelection);
  table_->verticalHeader()->hide();
  table_->horizontalHeader()->setStretchLastSection(true);
  // Long module paths lose their middle, keeping the start and the end that tells rows apart (layer
  // numbers); the tooltip has all.
  table_->setItemDelegateForColumn(0, names_ = new MiddleElideDelegate(table_));
  table_->setWordWrap(false);
  table_->verticalHeader()->setDefaultSectionSize(table_->fontMetrics().height() + 6);
  connect(table_, &QTableWidget::itemSelectionChanged, this, [this] {
    const auto rows = table_->selectionModel()->selectedRows();
    if (!rows.isEmpty()) Q_EMIT moduleSelected(rows.front().data(kPathRole).toString());
  });
  auto* split = new QSplitter(Qt::Horizontal, this);
  split->addWidget(view_);
  split->addWidget(table_);
  split->setStretchFactor(0, 3);
  split->setStretchFactor(1, 2);
  auto* bar = new QHBoxLayout;
  bar->addWidget(run_);
  bar->addWidget(caption_, 1);
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(4, 4, 4, 4);
  layout->addLayout(bar);
  layout->addWidget(split, 1);
}

void RooflinePage::setSession(SessionPtr session) {
  session_ = std::move(session);
  run_->reset(session_);
  rebuild();
}

void RooflinePage::rebuild() {
  table_->setRowCount(0);
  names_->reset();
  if (!session_) return;
  const LoadedRun& run = run_->run(*session_);
  // The roof and the points `flopscope roofline` plots (the analysis facade's; the run's peak: table or
  // override).
  plot_ = run.analysis.roofline();
  const std::string title = "Roofline: " + QFileInfo(run.path).fileName().toStdString();
  svg_ = QByteArray::fromStdString(graphs::roofline_svg(plot_, title));
  view_->setSvg(svg_);
  QStringList caption;
  caption << (plot_.peak
                  ? tr("Roof: %1 (%2).").arg(q(plot_.peak->name), q(plot_.peak->source))
                  : tr("No roof: no peak is known for this device (flopscope roofline --peak sets one)."));
  caption << tr("%1 modules by their own work, over %2; plotted %3 of %4 per iteration.")
                 .arg(plot_.points.size())
                 .arg(q(plot_.clock), q(time_text(plot_.time_covered_ns)), q(time_text(plot_.time_total_ns)));
  caption_->setText(caption.join(QLatin1Char(' ')));
  table_->setSortingEnabled(false);
  table_->setRowCount(static_cast<int>(plot_.points.size()));
  for (int r = 0; r < table_->rowCount(); ++r) {
    const graphs::RooflinePoint& p = plot_.points[static_cast<std::size_t>(r)];
    auto* name = new QTableWidgetItem(p.path.empty() ? QStringLiteral("(model)") : q(p.path));
    name->setData(kPathRole, q(p.path));
    name->setToolTip(q(p.text));
    table_->setItem(r, 0, name);
    table_->setItem(r, 1, number_item(si_text(p.intensity, ""), p.intensity));
    table_->setItem(r, 2, number_item(si_text(p.achieved, "FLOP/s"), p.achieved));
    const double of_roof = p.attainable > 0 ? p.achieved / p.attainable : 0;
    table_->setItem(r, 3, number_item(p.attainable > 0 ? percent_text(of_roof) : std::string("-"), of_roof));
    table_->setItem(r, 4, number_item(time_text(p.time_ns), p.time_ns));
    table_->setItem(r, 5,
                    new QTableWidgetItem(p.attainable <= 0 ? QStringLiteral("-")
                                         : p.memory_bound  ? tr("memory")
                                                           : tr("compute")));
  }
  table_->resizeColumnsToContents();
  table_->setColumnWidth(0, std::min(table_->columnWidth(0), 260));
}

void RooflinePage::selectModule(const QString& path) {
  for (int r = 0; r < table_->rowCount(); ++r)
    if (table_->item(r, 0)->data(kPathRole).toString() == path) {
      table_->blockSignals(true);
      table_->selectRow(r);
      table_->blockSignals(false);
      return;
    }
  table_->clearSelection();
}

}  // namespace flopscope::gui
