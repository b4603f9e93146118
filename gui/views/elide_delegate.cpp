#include "gui/views/elide_delegate.h"

#include <QApplication>
#include <QStyle>

#include "gui/models/elide_text.h"

namespace flopscope::gui {

void MiddleElideDelegate::initStyleOption(QStyleOptionViewItem* option, const QModelIndex& index) const {
  QStyledItemDelegate::initStyleOption(option, index);
  if (sizing_) return;
  const QStyle* style = option->widget ? option->widget->style() : QApplication::style();
  // The margin the item view style leaves on each side of a cell's text.
  const int margin = style->pixelMetric(QStyle::PM_FocusFrameHMargin, nullptr, option->widget) + 1;
  const int room = option->rect.width() - 2 * margin;
  const QAbstractItemModel* model = index.model();
  auto cut = cut_.find(room);
  if (cut == cut_.end() || !cut->second.contains(option->text)) {  // the rows changed: cut them all again
    QStringList column;
    for (int r = 0; r < model->rowCount(index.parent()); ++r)
      column << model->index(r, index.column(), index.parent()).data().toString();
    const QStringList cuts = elide_all_to_width(column, option->fontMetrics, room);
    QHash<QString, QString> by_text;
    for (qsizetype i = 0; i < column.size(); ++i) by_text.insert(column[i], cuts[i]);
    cut = cut_.insert_or_assign(room, std::move(by_text)).first;
  }
  option->text = cut->second.value(option->text, option->text);
  option->textElideMode = Qt::ElideNone;  // cut here already; Qt would cut again at its own place
}

QSize MiddleElideDelegate::sizeHint(const QStyleOptionViewItem& option, const QModelIndex& index) const {
  sizing_ = true;
  const QSize size = QStyledItemDelegate::sizeHint(option, index);
  sizing_ = false;
  return size;
}

}  // namespace flopscope::gui
