#include "gui/models/heatmap_model.h"

#include <QColor>

#include "gui/models/colors.h"
#include "gui/models/format.h"
#include "gui/models/roles.h"

namespace flopscope::gui {

HeatmapModel::HeatmapModel(QObject* parent) : QAbstractTableModel(parent) {}

void HeatmapModel::setHeatmap(HeatmapData data) {
  beginResetModel();
  data_ = std::move(data);
  endResetModel();
}

int HeatmapModel::rowCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : static_cast<int>(data_.rows.size());
}

int HeatmapModel::columnCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : data_.iterations;
}

QVariant HeatmapModel::data(const QModelIndex& index, int role) const {
  if (!checkIndex(index, CheckIndexOption::IndexIsValid)) return {};
  const auto& row = data_.rows[index.row()];
  double v = data_.value(static_cast<std::size_t>(index.row()), static_cast<std::size_t>(index.column()));
  switch (role) {
    case Qt::DisplayRole:
      return QString::fromStdString(format_ns(v));
    case kSortRole:
      return v;
    case kPathRole:
      return QString::fromStdString(row.path);
    case Qt::BackgroundRole:
      return heat_color(data_.scale(v));
    case Qt::ToolTipRole:
      // Percentiles only from enough iterations (the core's rule), "-" otherwise.
      return QStringLiteral("%1\niteration %2: %3 %4 self time\nP50 %5  P90 %6  P99 %7 (%8 iterations)")
          .arg(QString::fromStdString(row.path))
          .arg(index.column())
          .arg(QString::fromStdString(format_ns(v)), QString::fromLatin1(to_string(data_.clock)),
               QString::fromStdString(percentile_text(row.stats, 50)),
               QString::fromStdString(percentile_text(row.stats, 90)),
               QString::fromStdString(percentile_text(row.stats, 99)))
          .arg(row.stats.samples);
    default:
      return {};
  }
}

QVariant HeatmapModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (role != Qt::DisplayRole) return {};
  if (orientation == Qt::Horizontal) return section;
  if (section < 0 || section >= rowCount()) return {};
  return QString::fromStdString(data_.rows[section].path);
}

}  // namespace flopscope::gui
