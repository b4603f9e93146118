// Diff page: run A against run B: the headline (what vanished, what it saved) and a table of vanished,
// new and changed modules with both runs' costs, weight statuses and verdicts.
#pragma once

#include <QWidget>

#include "gui/models/session.h"

class QCheckBox;
class QLabel;
class QLineEdit;
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
  // The summary sentence the headline opens with, as plain text ("" without a diff).
  QString sentence() const;

  // The CI gates of `flopscope diff`, evaluated on this diff: comma-separated globs, and limits such as
  // "time=5%,flops=0.5%". Returns false (and says why in the result text) when a limit does not parse.
  void setGates(const QString& expect_vanished, const QString& forbid_active, const QString& max_regression);
  bool evaluateGates();
  QString gateResults() const;

 Q_SIGNALS:
  void moduleSelected(const QString& path);

 private:
  SessionPtr session_;
  DiffTableModel* model_;
  QSortFilterProxyModel* proxy_;
  QLabel* headline_;
  QCheckBox* show_all_;
  QTableView* table_;
  QLineEdit* expect_vanished_;
  QLineEdit* forbid_active_;
  QLineEdit* max_regression_;
  QLabel* gate_results_;
};

}  // namespace flopscope::gui
