// Module tree page: filter box, sortable tree of modules, and the selected module's ops, kernels and
// weights.
#pragma once

#include <QWidget>

#include "gui/models/session.h"

class QCheckBox;
class QLineEdit;
class QSortFilterProxyModel;
class QTextBrowser;
class QTreeView;

namespace flopscope::gui {

class ModuleFilterProxy;
class ModuleTreeModel;

class ModuleTreePage : public QWidget {
  Q_OBJECT

 public:
  explicit ModuleTreePage(QWidget* parent = nullptr);
  void setSession(SessionPtr session);

  QTreeView* treeView() const { return tree_; }
  QLineEdit* filterEdit() const { return filter_; }
  ModuleTreeModel* model() const { return model_; }
  QSortFilterProxyModel* proxy() const;
  // Diff mode: UNCHANGED modules are hidden until this is checked.
  QCheckBox* showUnchangedBox() const { return show_unchanged_; }
  QString selectedPath() const;
  QString detailsText() const;

 public Q_SLOTS:
  void selectModule(const QString& path);
  // Diff mode: expand the tree down to every vanished, dormant and new module (the roots of each
  // change) and select the first. Called once every view has the session, as selecting reaches them.
  void showChanges();

 Q_SIGNALS:
  void moduleSelected(const QString& path);

 private:
  void showDetails(const QString& path);

  SessionPtr session_;
  ModuleTreeModel* model_;
  ModuleFilterProxy* proxy_;
  QCheckBox* show_unchanged_;
  QLineEdit* filter_;
  QTreeView* tree_;
  QTextBrowser* details_;
};

}  // namespace flopscope::gui
