// Module tree page: filter box, sortable tree of modules, and the selected module's ops, kernels and
// weights.
#pragma once

#include <QWidget>

#include "gui/models/session.h"

class QLineEdit;
class QSortFilterProxyModel;
class QTextBrowser;
class QTreeView;

namespace flopscope::gui {

class ModuleTreeModel;

class ModuleTreePage : public QWidget {
  Q_OBJECT

 public:
  explicit ModuleTreePage(QWidget* parent = nullptr);
  void setSession(SessionPtr session);

  QTreeView* treeView() const { return tree_; }
  QLineEdit* filterEdit() const { return filter_; }
  ModuleTreeModel* model() const { return model_; }
  QSortFilterProxyModel* proxy() const { return proxy_; }
  QString selectedPath() const;
  QString detailsText() const;

 public Q_SLOTS:
  void selectModule(const QString& path);

 Q_SIGNALS:
  void moduleSelected(const QString& path);

 private:
  void showDetails(const QString& path);

  SessionPtr session_;
  ModuleTreeModel* model_;
  QSortFilterProxyModel* proxy_;
  QLineEdit* filter_;
  QTreeView* tree_;
  QTextBrowser* details_;
};

}  // namespace flopscope::gui
