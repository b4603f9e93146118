#include "gui/models/heatmap_model.h"

#include <QColor>
#include <algorithm>
#include <cmath>

#include "gui/models/colors.h"
#include "gui/models/format.h"
#include "gui/models/roles.h"

namespace flopscope::gui {

double HeatmapData::scale(double ns) const {
  if (ns <= 0 || max_ns <= 0) return 0;
  double lo = std::log(std::max(min_ns, 1.0));
  double hi = std::log(std::max(max_ns, 1.0));
  if (hi <= lo) return 1;
  return std::clamp((std::log(std::max(ns, 1.0)) - lo) / (hi - lo), 0.0, 1.0);
}

HeatmapData heatmap_data(const RunSummary& summary, std::size_t top_n) {
  HeatmapData d;
  d.iterations = summary.iterations;
  std::vector<const ModuleSummary*> candidates;
  for (std::size_t i = 1; i < summary.modules.size(); ++i)
    if (summary.modules[i].self_time.p50 > 0) candidates.push_back(&summary.modules[i]);
  std::stable_sort(candidates.begin(), candidates.end(), [](const ModuleSummary* x, const ModuleSummary* y) {
    return x->self_time.p50 > y->self_time.p50;
  });
  if (candidates.size() > top_n) candidates.resize(top_n);
  bool first = true;
  for (const ModuleSummary* m : candidates) {
    d.rows.push_back({m->path, m->self_time});
    d.iterations = std::max(d.iterations, static_cast<int>(m->self_time.values.size()));
    for (double v : m->self_time.values) {
      if (v <= 0) continue;
      d.min_ns = first ? v : std::min(d.min_ns, v);
      d.max_ns = first ? v : std::max(d.max_ns, v);
      first = false;
    }
  }
  return d;
}

HeatmapModel::HeatmapModel(QObject* parent) : QAbstractTableModel(parent) {}

void HeatmapModel::setHeatmap(HeatmapData data) {
  beginResetModel();
  data_ = std::move(data);
  endResetModel();
}

int HeatmapModel::rowCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : static_cast<int>(data_.rows.size());
}

int HeatmapModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : data_.iterations; }

QVariant HeatmapModel::data(const QModelIndex& index, int role) const {
  if (!checkIndex(index, CheckIndexOption::IndexIsValid)) return {};
  const auto& row = data_.rows[index.row()];
  const auto col = static_cast<std::size_t>(index.column());
  double v = col < row.stats.values.size() ? row.stats.values[col] : 0;
  switch (role) {
    case Qt::DisplayRole: return QString::fromStdString(format_ns(v));
    case kSortRole: return v;
    case kPathRole: return QString::fromStdString(row.path);
    case Qt::BackgroundRole: return heat_color(data_.scale(v));
    case Qt::ToolTipRole:
      return QStringLiteral("%1\niteration %2: %3\nP50 %4  P90 %5  P99 %6")
          .arg(QString::fromStdString(row.path))
          .arg(index.column())
          .arg(QString::fromStdString(format_ns(v)), QString::fromStdString(format_ns(row.stats.p50)),
               QString::fromStdString(format_ns(row.stats.p90)), QString::fromStdString(format_ns(row.stats.p99)));
    default: return {};
  }
}

QVariant HeatmapModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (role != Qt::DisplayRole) return {};
  if (orientation == Qt::Horizontal) return section;
  if (section < 0 || section >= rowCount()) return {};
  return QString::fromStdString(data_.rows[section].path);
}

}  // namespace flopscope::gui
