// Kernels by name as a table model: the core's kernel table (analyzer/kernel_table, what `report --kernels`
// prints) of a whole run or of one module's kernels, worded as the CLI words it. The detail pane and
// `flopscope-gui --dump kernels` show these cells.
#pragma once

#include <QAbstractTableModel>
#include <vector>

#include "analyzer/kernel_table.h"

namespace flopscope::gui {

class KernelTableModel : public QAbstractTableModel {
  Q_OBJECT

 public:
  enum Column { kName, kKind, kCount, kDeviceTime, kFlops, kBytes, kMeasuredFlops, kModule, kColumnCount };

  explicit KernelTableModel(QObject* parent = nullptr);
  // The rows of the core's kernel table: the analysis facade's (RunAnalysis::kernels) for a whole run.
  void setRows(std::vector<KernelRow> rows);
  const std::vector<KernelRow>& rows() const { return rows_; }

  static QString header(int column);
  static QString cell(const KernelRow& row, int column);

  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
  QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

 private:
  std::vector<KernelRow> rows_;
};

}  // namespace flopscope::gui
