// Table cells whose text is cut in the middle to the column's width with the core's elision (through
// elide_all_to_width), so the part that tells rows apart stays on screen: `...BertLayer_0...Linear_0` and
// `...BertLayer_1...Linear_0` never read the same. Qt's own elision cuts one place for every row.
#pragma once

#include <QHash>
#include <QString>
#include <QStyledItemDelegate>
#include <map>

namespace flopscope::gui {

class MiddleElideDelegate : public QStyledItemDelegate {
 public:
  using QStyledItemDelegate::QStyledItemDelegate;
  // Public for tests: sets the text the cell paints for option->rect.
  void initStyleOption(QStyleOptionViewItem* option, const QModelIndex& index) const override;
  // The whole text's size: resizeColumnsToContents sizes the column for it, not for a cut.
  QSize sizeHint(const QStyleOptionViewItem& option, const QModelIndex& index) const override;
  // Forget the cut texts: the rows changed.
  void reset() { cut_.clear(); }

 private:
  // By the room they were cut to (pixels): each text of the column and its cut.
  mutable std::map<int, QHash<QString, QString>> cut_;
  mutable bool sizing_ = false;  // inside sizeHint: leave the text whole
};

}  // namespace flopscope::gui
