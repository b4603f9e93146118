// The Ranks tab's rank x module matrix (analyzer/fleet/rank_heatmap.h) as a table model: module rows, rank
// columns, each cell the module's time P50 on that rank ("absent" where the rank lacks the module), for
// tooltips, tests and accessibility. The numbers are the core's; this only formats them.
#pragma once

#include <QAbstractTableModel>
#include <memory>

#include "analyzer/fleet/rank_heatmap.h"

namespace flopscope::gui {

class RankMatrixModel : public QAbstractTableModel {
  Q_OBJECT

 public:
  explicit RankMatrixModel(QObject* parent = nullptr);
  // The report must outlive the model's use of it (the session's RankSet holds it).
  void setReport(std::shared_ptr<const RankReport> report, int max_depth);
  const RankHeatmap& heatmap() const { return heatmap_; }
  const RankReport* report() const { return report_.get(); }
  // The index into RankReport::modules of a row.
  std::size_t moduleOfRow(int row) const { return heatmap_.modules.at(static_cast<std::size_t>(row)); }

  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;
  // DisplayRole: the time or "absent"; kSortRole: the time in ns (invalid when absent); kPathRole.
  QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
  QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

 private:
  std::shared_ptr<const RankReport> report_;
  RankHeatmap heatmap_;
};

}  // namespace flopscope::gui
