#include "gui/models/rank_matrix_model.h"

#include "gui/models/colors.h"
#include "gui/models/format.h"
#include "gui/models/roles.h"

namespace flopscope::gui {

RankMatrixModel::RankMatrixModel(QObject* parent) : QAbstractTableModel(parent) {}

void RankMatrixModel::setReport(std::shared_ptr<const RankReport> report, int max_depth) {
  beginResetModel();
  report_ = std::move(report);
  heatmap_ = report_ ? rank_heatmap(*report_, max_depth) : RankHeatmap{};
  endResetModel();
}

int RankMatrixModel::rowCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : static_cast<int>(heatmap_.data.rows.size());
}

int RankMatrixModel::columnCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : heatmap_.data.iterations;
}

QVariant RankMatrixModel::data(const QModelIndex& index, int role) const {
  if (!checkIndex(index, CheckIndexOption::IndexIsValid) || !report_) return {};
  const RankModuleRow& module = report_->modules[moduleOfRow(index.row())];
  const auto& v = module.time_p50[static_cast<std::size_t>(index.column())];
  const int rank = report_->ranks[static_cast<std::size_t>(index.column())].rank;
  const QString path = QString::fromStdString(module.path.empty() ? std::string("(model)") : module.path);
  switch (role) {
    case Qt::DisplayRole:
      return v ? QString::fromStdString(format_ns(*v)) : QStringLiteral("absent");
    case kSortRole:
      return v ? QVariant(*v) : QVariant();
    case kPathRole:
      return QString::fromStdString(module.path);
    case Qt::BackgroundRole:
      return v && *v > 0 ? QVariant(heat_color(heatmap_.data.scale(*v))) : QVariant();
    case Qt::ToolTipRole: {
      QString tip =
          QStringLiteral("%1\nrank %2: %3")
              .arg(path)
              .arg(rank)
              .arg(v ? QString::fromStdString(format_ns(*v)) : QStringLiteral("absent on this rank"));
      tip += QStringLiteral("\nmin %1  median %2  max %3 (rank %4)  imbalance %5")
                 .arg(QString::fromStdString(format_ns(module.time.min)),
                      QString::fromStdString(format_ns(module.time.median)),
                      QString::fromStdString(format_ns(module.time.max)))
                 .arg(module.time.straggler)
                 .arg(QString::fromStdString(signed_percent_text(module.time.imbalance)));
      return tip;
    }
    default:
      return {};
  }
}

QVariant RankMatrixModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (role != Qt::DisplayRole || !report_) return {};
  if (orientation == Qt::Horizontal) {
    if (section < 0 || section >= columnCount()) return {};
    return QStringLiteral("rank %1").arg(report_->ranks[static_cast<std::size_t>(section)].rank);
  }
  if (section < 0 || section >= rowCount()) return {};
  const std::string& path = report_->modules[moduleOfRow(section)].path;
  return QString::fromStdString(path.empty() ? std::string("(model)") : path);
}

}  // namespace flopscope::gui
