// The module tree's filter: a path substring (a matching module shows its whole subtree) and, in diff
// mode, UNCHANGED modules hidden so the changed ones are what the tree shows (a module with a changed
// descendant stays, as the way down to it).
#pragma once

#include <QSortFilterProxyModel>

namespace flopscope::gui {

class ModuleFilterProxy : public QSortFilterProxyModel {
 public:
  explicit ModuleFilterProxy(QObject* parent = nullptr);
  void setText(const QString& text);
  void setHideUnchanged(bool hide);
  bool hidesUnchanged() const { return hide_unchanged_; }

 protected:
  bool filterAcceptsRow(int row, const QModelIndex& parent) const override;

 private:
  QString text_;
  bool hide_unchanged_ = false;
};

}  // namespace flopscope::gui
