#include "gui/views/flame_page.h"

#include <QComboBox>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QMouseEvent>
#include <QPainter>
#include <QPushButton>
#include <QToolTip>
#include <QVBoxLayout>

#include "gui/models/elide_text.h"

namespace flopscope::gui {
namespace {
constexpr int kRow = 24;
constexpr int kMargin = 8;
}  // namespace

FlameWidget::FlameWidget(QWidget* parent) : QWidget(parent) {
  setMouseTracking(true);
  setMinimumHeight(kRow * 3);
}

void FlameWidget::setIcicle(graphs::Icicle icicle, const RunSummary* summary) {
  icicle_ = std::move(icicle);
  summary_ = summary;
  updateGeometry();
  update();
}

void FlameWidget::setSelectedPath(const QString& path) {
  selected_ = path;
  has_selection_ = true;
  update();
}

QSize FlameWidget::sizeHint() const {
  return {900, kMargin * 2 + kRow * std::max(3, icicle_.depth)};
}

QRectF FlameWidget::cellRect(int i) const {
  const auto& c = icicle_.cells[static_cast<std::size_t>(i)];
  const double usable = width() - 2 * kMargin;
  return {kMargin + c.x0 * usable, static_cast<double>(kMargin + c.depth * kRow), (c.x1 - c.x0) * usable,
          static_cast<double>(kRow - 1)};
}

int FlameWidget::cellAt(const QPoint& pos) const {
  for (int i = 0; i < static_cast<int>(icicle_.cells.size()); ++i)
    if (cellRect(i).contains(pos)) return i;
  return -1;
}

void FlameWidget::paintEvent(QPaintEvent*) {
  QPainter p(this);
  p.fillRect(rect(), palette().base());
  if (icicle_.cells.empty()) {
    p.drawText(rect(), Qt::AlignCenter,
               tr("nothing to draw: no %1").arg(QString::fromStdString(icicle_.measure)));
    return;
  }
  const QFontMetrics fm(font());
  for (int i = 0; i < static_cast<int>(icicle_.cells.size()); ++i) {
    const auto& c = icicle_.cells[static_cast<std::size_t>(i)];
    QRectF r = cellRect(i);
    p.fillRect(r, QColor(QString::fromLatin1(c.fill)));
    const bool selected =
        has_selection_ && summary_ != nullptr &&
        QString::fromStdString(summary_->modules[static_cast<std::size_t>(c.module)].path) == selected_;
    if (selected) {
      p.setPen(QPen(Qt::black, 2));
      p.drawRect(r.adjusted(1, 1, -1, -1));
    }
    if (r.width() < 24) continue;
    const QString full =
        QStringLiteral("%1  %2").arg(QString::fromStdString(c.label), QString::fromStdString(c.value_text));
    QString text = fm.horizontalAdvance(full) + 6 <= r.width()
                       ? full
                       : elide_to_width(QString::fromStdString(c.label), fm, static_cast<int>(r.width()) - 6);
    p.setPen(Qt::black);
    p.drawText(r.adjusted(3, 0, -3, 0), Qt::AlignVCenter | Qt::AlignLeft, text);
  }
}

void FlameWidget::mouseMoveEvent(QMouseEvent* event) {
  int i = cellAt(event->position().toPoint());
  if (i < 0) {
    QToolTip::hideText();
    return;
  }
  QToolTip::showText(event->globalPosition().toPoint(),
                     QString::fromStdString(icicle_.cells[static_cast<std::size_t>(i)].text), this);
}

void FlameWidget::mousePressEvent(QMouseEvent* event) {
  if (int i = cellAt(event->position().toPoint()); i >= 0)
    Q_EMIT cellClicked(icicle_.cells[static_cast<std::size_t>(i)].module);
}

void FlameWidget::mouseDoubleClickEvent(QMouseEvent* event) {
  if (int i = cellAt(event->position().toPoint()); i >= 0)
    Q_EMIT cellDoubleClicked(icicle_.cells[static_cast<std::size_t>(i)].module);
}

FlamePage::FlamePage(QWidget* parent)
    : QWidget(parent),
      run_(new RunSwitch(this)),
      metric_(new QComboBox(this)),
      whole_(new QPushButton(tr("Whole model"), this)),
      caption_(new QLabel(this)),
      widget_(new FlameWidget(this)) {
  metric_->addItem(tr("Time"), static_cast<int>(graphs::CostMetric::kTime));
  metric_->addItem(tr("FLOPs"), static_cast<int>(graphs::CostMetric::kFlops));
  metric_->addItem(tr("Bytes"), static_cast<int>(graphs::CostMetric::kBytes));
  caption_->setWordWrap(true);
  auto* bar = new QHBoxLayout;
  bar->addWidget(run_);
  bar->addWidget(new QLabel(tr("Width by:"), this));
  bar->addWidget(metric_);
  bar->addWidget(whole_);
  bar->addWidget(caption_, 1);
  auto* layout = new QVBoxLayout(this);
  layout->addLayout(bar);
  layout->addWidget(widget_, 1);
  connect(metric_, &QComboBox::currentIndexChanged, this, [this] { rebuild(); });
  connect(run_, &QComboBox::currentIndexChanged, this, [this] { zoomTo(QString()); });
  connect(whole_, &QPushButton::clicked, this, [this] { zoomTo(QString()); });
  connect(widget_, &FlameWidget::cellClicked, this, [this](int m) {
    QString path = QString::fromStdString(shownRun().summary.modules[static_cast<std::size_t>(m)].path);
    widget_->setSelectedPath(path);
    Q_EMIT moduleSelected(path);
  });
  connect(widget_, &FlameWidget::cellDoubleClicked, this, [this](int m) {
    root_ = m;
    rebuild();
  });
}

void FlamePage::setSession(SessionPtr session) {
  session_ = std::move(session);
  root_ = 0;
  run_->reset(session_);
  rebuild();
}

const LoadedRun& FlamePage::shownRun() const {
  return run_->run(*session_);
}

bool FlamePage::zoomTo(const QString& path) {
  if (!session_) return false;
  int index = path.isEmpty() ? 0 : shownRun().summary.find(path.toStdString());
  if (index < 0) return false;
  root_ = index;
  rebuild();
  return true;
}

void FlamePage::selectModule(const QString& path) {
  widget_->setSelectedPath(path);
}

void FlamePage::rebuild() {
  if (!session_) return;
  const LoadedRun& run = shownRun();
  const RunSummary& summary = run.summary;
  // The cells `flopscope flame` draws for the same run, metric and root (the analysis facade's).
  FlameRequest request;
  request.metric = static_cast<graphs::CostMetric>(metric_->currentData().toInt());
  if (root_ != 0) request.root = summary.modules[static_cast<std::size_t>(root_)].path;
  StatusOr<graphs::Icicle> found = run.analysis.flame(request);
  graphs::Icicle icicle;
  if (found.ok()) icicle = std::move(*found);
  QString caption = found.ok()
                        ? tr("%1 of %2; total %3")
                              .arg(QString::fromStdString(icicle.measure),
                                   root_ == 0 ? tr("the whole model") : QString::fromStdString(request.root),
                                   QString::fromStdString(icicle.root_text))
                        : QString::fromStdString(found.status().message());
  if (session_->is_diff())
    caption = tr("Run %1 (%2): ")
                  .arg(&run == session_->a.get() ? QStringLiteral("A") : QStringLiteral("B"),
                       QFileInfo(run.path).fileName()) +
              caption;
  for (const auto& note : icicle.notes) caption += QStringLiteral("\nnote: ") + QString::fromStdString(note);
  caption_->setText(caption);
  whole_->setEnabled(root_ != 0);
  widget_->setIcicle(std::move(icicle), &summary);
}

}  // namespace flopscope::gui
