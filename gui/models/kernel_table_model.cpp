#include "gui/models/kernel_table_model.h"

#include <utility>

#include "analyzer/format.h"
#include "gui/models/roles.h"

namespace flopscope::gui {

KernelTableModel::KernelTableModel(QObject* parent) : QAbstractTableModel(parent) {}

void KernelTableModel::setRows(std::vector<KernelRow> rows) {
  beginResetModel();
  rows_ = std::move(rows);
  endResetModel();
}

QString KernelTableModel::header(int column) {
  static const char* const names[kColumnCount] = {"Kernel", "Kind",  "Count",          "Device time",
                                                  "FLOPs",  "Bytes", "Measured FLOPs", "Module"};
  return column >= 0 && column < kColumnCount ? QString::fromLatin1(names[column]) : QString();
}

QString KernelTableModel::cell(const KernelRow& r, int column) {
  auto q = [](const std::string& s) { return QString::fromStdString(s); };
  switch (column) {
    case kName:
      return q(r.name);
    case kKind:
      return q(r.category);
    case kCount:
      return QString::number(r.count);
    case kDeviceTime:
      return q(time_text(r.device_time_ns));
    // The launching ops' analytic work shared among their kernels, with the core's lower-bound wording.
    case kFlops:
      return q(kernel_work_text(r, r.flops));
    case kBytes:
      return q(kernel_work_text(r, r.bytes));
    case kMeasuredFlops:
      return r.has_counters ? q(si_text(r.measured.flops, "")) : QStringLiteral("-");
    case kModule:
      return r.module_path.empty() ? QStringLiteral("(model)") : q(r.module_path);
    default:
      return {};
  }
}

int KernelTableModel::rowCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : static_cast<int>(rows_.size());
}

int KernelTableModel::columnCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : kColumnCount;
}

QVariant KernelTableModel::data(const QModelIndex& index, int role) const {
  if (!checkIndex(index, CheckIndexOption::IndexIsValid)) return {};
  const KernelRow& r = rows_[static_cast<std::size_t>(index.row())];
  switch (role) {
    case Qt::DisplayRole:
      return cell(r, index.column());
    case kSortRole:
      switch (index.column()) {
        case kCount:
          return static_cast<qlonglong>(r.count);
        case kDeviceTime:
          return r.device_time_ns;
        case kFlops:
          return r.flops;
        case kBytes:
          return r.bytes;
        case kMeasuredFlops:
          return r.measured.flops;
        default:
          return cell(r, index.column());
      }
    case kPathRole:
      return QString::fromStdString(r.module_path);
    default:
      return {};
  }
}

QVariant KernelTableModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
  return header(section);
}

}  // namespace flopscope::gui
