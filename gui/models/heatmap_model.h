// Latency heatmap data: the top N modules by self time (rows) by iteration (columns), each cell the
// module's self time in that iteration; as a table model for tooltips, tests and accessibility.
#pragma once

#include <QAbstractTableModel>
#include <string>
#include <vector>

#include "analyzer/summary.h"

namespace flopscope::gui {

struct HeatmapRow {
  std::string path;
  LatencyStats stats;  // values are per iteration, in iteration order
};

struct HeatmapData {
  std::vector<HeatmapRow> rows;  // slowest first
  int iterations = 0;
  double min_ns = 0;  // over all cells > 0
  double max_ns = 0;
  // Position of a value on the colour scale, in [0, 1] (logarithmic: latencies span decades).
  double scale(double ns) const;
};

// Rows are modules other than the root with self time, ordered by self time P50; modules that only
// contain others (no self time) are skipped because their children already show that time.
HeatmapData heatmap_data(const RunSummary& summary, std::size_t top_n = 20);

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
