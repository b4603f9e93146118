// The diff view's table: one row per module that vanished, is new or changed (or every module, with
// setShowUnchanged), with both runs' time and FLOPs, weight statuses and the verdict line.
#pragma once

#include <QAbstractTableModel>

#include "gui/models/session.h"

namespace flopscope::gui {

class DiffTableModel : public QAbstractTableModel {
  Q_OBJECT

 public:
  enum Column {
    kModule,
    kStatus,
    kTimeA,
    kTimeB,
    kDeltaTime,
    kFlopsA,
    kFlopsB,
    kWeightsA,
    kWeightsB,
    kVerdict,
    kColumnCount
  };

  explicit DiffTableModel(QObject* parent = nullptr);
  void setSession(SessionPtr session);
  void setShowUnchanged(bool show);

  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
  QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

 private:
  void rebuild();
  SessionPtr session_;
  bool show_unchanged_ = false;
  std::vector<int> rows_;  // indices into DiffTree::nodes
};

}  // namespace flopscope::gui
