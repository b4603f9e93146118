// The module tree as a Qt item model: one row per module (the union of both runs in diff mode), columns
// for calls, self/inclusive time P50/P99, FLOPs (analytic and measured), bytes, intensity, share,
// parameters (count and bytes, with the children's) and weights; in diff mode also status and deltas. Times
// are on the session's clock (device time for GPU runs, analyzer/clock.h) with host time in its own labelled
// column. Display text is formatted; kSortRole gives the number.
#pragma once

#include <QAbstractItemModel>
#include <utility>
#include <vector>

#include "analyzer/memory_usage.h"
#include "analyzer/module_params.h"
#include "gui/models/session.h"

namespace flopscope::gui {

class ModuleTreeModel : public QAbstractItemModel {
  Q_OBJECT

 public:
  enum Column {
    kName,
    kType,
    kCalls,
    kSelfP50,
    kSelfP99,
    kInclP50,
    kInclP99,
    kHostInclP50,  // host op time when the clock is the device's; the tree page hides it otherwise
    kFlops,
    kMeasuredFlops,
    kBytes,
    kIntensity,
    kShare,
    kParams,      // parameter and buffer elements, with the children's (the tooltip says the module's own)
    kParamBytes,  // their bytes, with the children's
    kAllocated,   // bytes allocated while its ops ran, with the children's, per device (shown when recorded)
    kWeights,
    kBehaviour,  // elimination candidates: zero-like / identity-like (runs recorded with --activations)
    kStatus,     // diff mode only from here
    kDeltaTime,
    kDeltaFlops,
    kColumnCount
  };

  explicit ModuleTreeModel(QObject* parent = nullptr);

  void setSession(SessionPtr session);
  const Session* session() const { return session_.get(); }

  // The columns the tree shows, in their order on screen: measured FLOPs only when a run has hardware
  // counters, host time beside the device clock only, and in diff mode status and deltas next to the name.
  std::vector<int> shownColumns() const;

  // The index (column 0) of the module with this path, or an invalid index.
  QModelIndex indexForPath(const QString& path) const;

  QModelIndex index(int row, int column, const QModelIndex& parent = {}) const override;
  QModelIndex parent(const QModelIndex& child) const override;
  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
  QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

 private:
  const ModuleSummary* summaryOf(const DiffNode& n) const;
  double number(const DiffNode& n, int column) const;
  QVariant text(const DiffNode& n, int column) const;

  // The core's parameter counts of the module a row shows (A's where it has the module, else B's).
  const ModuleParams* paramsOf(const DiffNode& n) const;
  // The core's memory figures of the run a row shows and the module's index in it (A's where it has the
  // module, else B's); null when that run has no memory events.
  std::pair<const MemoryUsage*, std::size_t> memoryOf(const DiffNode& n) const;

  SessionPtr session_;
  std::vector<int> row_in_parent_;
  std::vector<ModuleParams> params_a_, params_b_;  // indexed like each run's summary.modules
  const MemoryUsage* memory_a_ = nullptr;          // RunAnalysis::memory() of each run; null without events
  const MemoryUsage* memory_b_ = nullptr;
};

}  // namespace flopscope::gui
