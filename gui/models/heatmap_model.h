// The latency heatmap (analyzer/heatmap.h: flopscope::HeatmapData, heatmap_data) as a table model for
// tooltips, tests and accessibility.
#pragma once

#include <QAbstractTableModel>
#include <string>
#include <vector>

#include "analyzer/heatmap.h"

namespace flopscope::gui {

class HeatmapModel : public QAbstractTableModel {
  Q_OBJECT

 public:
  explicit HeatmapModel(QObject* parent = nullptr);
  void setHeatmap(HeatmapData data);
  const HeatmapData& heatmap() const { return data_; }

  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
  QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

 private:
  HeatmapData data_;
};

}  // namespace flopscope::gui
