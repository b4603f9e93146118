// The main window: opens runs through RunLoader (off the GUI thread, progress and cancel in the status
// bar), shows them in the tree, graph, heatmap, timeline and diff pages (and, for the ranks of one
// distributed run, the Ranks page, whose rank selector switches the run the others show), and keeps the
// pages' selections in step. Errors appear in a message box; the window stays usable.
#pragma once

#include <QMainWindow>

#include "gui/models/run_loader.h"

class QLabel;
class QMenu;
class QProgressBar;
class QPushButton;
class QTabWidget;

namespace flopscope::gui {

class DiffPage;
class FlamePage;
class GraphPage;
class HeatmapPage;
class ModuleTreePage;
class RanksPage;
class RooflinePage;
class TimelinePage;

class MainWindow : public QMainWindow {
  Q_OBJECT

 public:
  explicit MainWindow(QWidget* parent = nullptr);

  // One path: one run; two: run A against run B; a folder, or files that differ in their rank token (or
  // more than two): the ranks of one run.
  void openFiles(const QStringList& paths);
  void setSession(SessionPtr session);
  // The module tree of a run still loading (load_preview): shown on the Modules tab alone until setSession.
  void setPreview(const SessionPtr& preview);
  SessionPtr session() const { return session_; }
  // "tree", "graph", "heatmap", "flame", "roofline", "timeline", "diff" or "ranks"; false for an unknown
  // name.
  bool showView(const QString& name);
  QWidget* currentView() const;

  RunLoader* loader() const { return loader_; }
  ModuleTreePage* treePage() const { return tree_; }
  GraphPage* graphPage() const { return graph_; }
  HeatmapPage* heatmapPage() const { return heatmap_; }
  FlamePage* flamePage() const { return flame_; }
  RooflinePage* rooflinePage() const { return roofline_; }
  TimelinePage* timelinePage() const { return timeline_; }
  DiffPage* diffPage() const { return diff_; }
  RanksPage* ranksPage() const { return ranks_; }
  QString lastError() const { return last_error_; }
  // The status bar's data-quality line and the list View > Data quality shows.
  QString qualityText() const;
  QString qualityList() const { return quality_list_; }
  QStringList recentFiles() const;
  // Every menu shortcut with what it does, as the Help menu lists it (built from the actions themselves).
  QString shortcutsText() const;
  // The window's size, position and state from the last session (the app calls it; tests and
  // screenshots keep their fixed size). Saved when the window closes.
  void restoreWindowState();
  // The first window's size on a screen with `available` room: 1400x900 where it fits, else the room less a
  // margin (1366x768 keeps the headline, status bar and the window's own buttons on screen).
  static QSize initialSize(const QSize& available);

 Q_SIGNALS:
  void sessionShown();
  void errorShown(const QString& message);

 protected:
  void dragEnterEvent(QDragEnterEvent* event) override;
  void dropEvent(QDropEvent* event) override;
  void closeEvent(QCloseEvent* event) override;

 private:
  void buildMenus();
  void addRecent(const QStringList& paths);
  void refreshRecentMenu();
  void showError(const QString& message);
  void selectEverywhere(const QString& path, QObject* origin);
  void showQuality();
  // View menu entries only for the tabs shown (Ranks only for a distributed run).
  void syncViewMenu();

  SessionPtr session_;
  RunLoader* loader_;
  QTabWidget* tabs_;
  ModuleTreePage* tree_;
  GraphPage* graph_;
  HeatmapPage* heatmap_;
  FlamePage* flame_;
  RooflinePage* roofline_;
  TimelinePage* timeline_;
  DiffPage* diff_;
  RanksPage* ranks_;
  QMenu* recent_menu_ = nullptr;
  QMenu* view_menu_ = nullptr;
  QString quality_list_;
  QProgressBar* progress_;
  QLabel* stage_;
  QPushButton* cancel_;
  QLabel* quality_;
  QString last_error_;
};

}  // namespace flopscope::gui
