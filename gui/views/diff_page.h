// Diff page: run A against run B: the headline (what vanished, what it saved) and a table of vanished,
// new and changed modules with both runs' costs, weight statuses and verdicts.
#pragma once

#include <QWidget>

#include "gui/models/session.h"

class QCheckBox;
class QLabel;
class QSortFilterProxyModel;
class QTableView;

namespace flopscope::gui {

class DiffTableModel;

class DiffPage : public QWidget {
  Q_OBJECT

 public:
  explicit DiffPage(QWidget* parent = nullptr);
  void setSession(SessionPtr session);
  DiffTableModel* model() const { return model_; }
  QTableView* table() const { return table_; }
  QString headline() const;

 Q_SIGNALS:
  void moduleSelected(const QString& path);

 private:
  SessionPtr session_;
  DiffTableModel* model_;
  QSortFilterProxyModel* proxy_;
  QLabel* headline_;
  QCheckBox* show_all_;
  QTableView* table_;
};

}  // namespace flopscope::gui
