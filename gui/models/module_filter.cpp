#include "gui/models/module_filter.h"

#include "analyzer/diff/diff.h"
#include "gui/models/roles.h"

namespace flopscope::gui {

ModuleFilterProxy::ModuleFilterProxy(QObject* parent) : QSortFilterProxyModel(parent) {
  // A row whose descendant passes stays, as the path to it.
  setRecursiveFilteringEnabled(true);
}

void ModuleFilterProxy::setText(const QString& text) {
  text_ = text;
  invalidateFilter();
}

void ModuleFilterProxy::setHideUnchanged(bool hide) {
  if (hide == hide_unchanged_) return;
  hide_unchanged_ = hide;
  invalidateFilter();
}

bool ModuleFilterProxy::filterAcceptsRow(int row, const QModelIndex& parent) const {
  const QModelIndex index = sourceModel()->index(row, 0, parent);
  if (hide_unchanged_ && index.data(kStatusRole).toInt() == static_cast<int>(Verdict::kUnchanged))
    return false;
  if (text_.isEmpty()) return true;
  // The module or one of its ancestors matches: a match shows its subtree.
  for (QModelIndex i = index; i.isValid(); i = i.parent())
    if (i.data(kPathRole).toString().contains(text_, Qt::CaseInsensitive)) return true;
  return false;
}

}  // namespace flopscope::gui
