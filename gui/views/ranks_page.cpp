#include "gui/views/ranks_page.h"

#include <QComboBox>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QSpinBox>
#include <QVBoxLayout>

#include "gui/models/format.h"
#include "gui/models/roles.h"
#include "gui/views/heatmap_page.h"

namespace flopscope::gui {

RanksPage::RanksPage(QWidget* parent)
    : QWidget(parent),
      selector_(new QComboBox(this)),
      depth_(new QSpinBox(this)),
      summary_(new QLabel(this)),
      model_(new RankMatrixModel(this)),
      widget_(new HeatmapWidget(this)) {
  depth_->setRange(0, 20);
  depth_->setValue(2);
  depth_->setPrefix(tr("modules to depth "));
  summary_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  summary_->setTextFormat(Qt::PlainText);
  summary_->setWordWrap(true);
  widget_->setTooltipModel(model_);
  connect(selector_, &QComboBox::activated, this, &RanksPage::rankSelected);
  connect(depth_, &QSpinBox::valueChanged, this, &RanksPage::rebuild);
  connect(widget_, &HeatmapWidget::rowSelected, this, [this](const QString&) {
    const int row = widget_->selectedRow();
    if (row >= 0 && row < model_->rowCount())
      Q_EMIT moduleSelected(model_->index(row, 0).data(kPathRole).toString());
  });
  auto* bar = new QHBoxLayout;
  bar->addWidget(new QLabel(tr("Rank shown in the other tabs:"), this));
  bar->addWidget(selector_);
  bar->addSpacing(16);
  bar->addWidget(depth_);
  bar->addStretch(1);
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(4, 4, 4, 4);
  layout->addLayout(bar);
  layout->addWidget(summary_);
  layout->addWidget(widget_, 1);
}

QString RanksPage::summaryText() const {
  return summary_->text();
}

void RanksPage::setSession(SessionPtr session) {
  session_ = std::move(session);
  if (!session_ || !session_->ranks) {
    ranks_.reset();
    selector_->clear();
    straggler_text_.clear();
    summary_->clear();
    model_->setReport(nullptr, depth_->value());
    widget_->setHeatmap(
        {}, tr("Open the ranks of a distributed run (run.rank*.db, or a folder) to compare them."));
    return;
  }
  if (session_->ranks != ranks_) {
    ranks_ = session_->ranks;
    const RankReport& r = ranks_->report;
    selector_->clear();
    for (const auto& t : r.ranks)
      selector_->addItem(
          tr("rank %1 \u2014 %2").arg(t.rank).arg(QFileInfo(QString::fromStdString(t.path)).fileName()));
    // The core's wording, as `flopscope report` prints it.
    straggler_text_ = QString::fromStdString(straggler_line(r));
    QStringList lines{
        tr("%1 ranks; times are %2").arg(r.ranks.size()).arg(QString::fromStdString(rank_clock_name(r))),
        straggler_text_, QString::fromStdString(communication_line(r))};
    for (const auto& w : r.warnings) lines << QStringLiteral("warning: ") + QString::fromStdString(w);
    summary_->setText(lines.join(QLatin1Char('\n')));
    rebuild();
  }
  selector_->setCurrentIndex(session_->rank_index);
}

void RanksPage::rebuild() {
  if (!ranks_) return;
  // Aliasing pointer: the report lives as long as the rank set.
  model_->setReport(std::shared_ptr<const RankReport>(ranks_, &ranks_->report), depth_->value());
  QStringList labels;
  for (const auto& t : ranks_->report.ranks) labels << QString::number(t.rank);
  widget_->setColumns(tr("rank"), labels, false, tr("No module has time on any rank."));
  widget_->setMeasure(ranks_->report.device_clock ? tr("device time P50") : tr("host time P50"));
  widget_->setHeatmap(model_->heatmap().data,
                      tr("Module time P50 per rank (%1), modules to depth %2")
                          .arg(QString::fromStdString(rank_clock_name(ranks_->report)))
                          .arg(depth_->value()));
}

void RanksPage::selectModule(const QString& path) {
  for (int row = 0; row < model_->rowCount(); ++row)
    if (model_->index(row, 0).data(kPathRole).toString() == path) {
      widget_->blockSignals(true);
      widget_->setSelectedRow(row);
      widget_->blockSignals(false);
    }
}

}  // namespace flopscope::gui
