#include "gui/views/main_window.h"

#include <QApplication>
#include <QCloseEvent>
#include <QCoreApplication>
#include <QDragEnterEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QGuiApplication>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QProgressBar>
#include <QPushButton>
#include <QScreen>
#include <QSettings>
#include <QStatusBar>
#include <QTabWidget>
#include <iterator>

#include "analyzer/format.h"
#include "gui/views/diff_page.h"
#include "gui/views/flame_page.h"
#include "gui/views/graph_page.h"
#include "gui/views/heatmap_page.h"
#include "gui/views/module_tree_page.h"
#include "gui/views/ranks_page.h"
#include "gui/views/roofline_page.h"
#include "gui/views/timeline_page.h"

namespace flopscope::gui {

namespace {

constexpr int kMaxRecent = 10;
const char* const kRecentKey = "recentFiles";
const char* const kGeometryKey = "window/geometry";
const char* const kStateKey = "window/state";
// The views by name (--screenshot --view, the View menu), in tab order.
constexpr const char* kViewNames[] = {"tree",     "graph",    "heatmap", "flame",
                                      "roofline", "timeline", "diff",    "ranks"};
const char* const kFileFilter = "Runs and traces (*.db *.sqlite *.json *.json.gz *.csv);;All files (*)";

}  // namespace

MainWindow::MainWindow(QWidget* parent)
    : QMainWindow(parent),
      loader_(new RunLoader(this)),
      tabs_(new QTabWidget(this)),
      tree_(new ModuleTreePage(this)),
      graph_(new GraphPage(this)),
      heatmap_(new HeatmapPage(this)),
      flame_(new FlamePage(this)),
      roofline_(new RooflinePage(this)),
      timeline_(new TimelinePage(this)),
      diff_(new DiffPage(this)),
      ranks_(new RanksPage(this)),
      progress_(new QProgressBar(this)),
      stage_(new QLabel(this)),
      cancel_(new QPushButton(tr("Cancel"), this)),
      quality_(new QLabel(this)) {
  setWindowTitle(QStringLiteral("flopscope"));
  setAcceptDrops(true);
  tabs_->addTab(tree_, tr("Modules"));
  tabs_->addTab(graph_, tr("Graph"));
  tabs_->addTab(heatmap_, tr("Latency heatmap"));
  tabs_->addTab(flame_, tr("Flame"));
  tabs_->addTab(roofline_, tr("Roofline"));
  tabs_->addTab(timeline_, tr("Timeline"));
  tabs_->addTab(diff_, tr("Diff"));
  tabs_->addTab(ranks_, tr("Ranks"));
  tabs_->setTabVisible(tabs_->indexOf(ranks_), false);  // shown for a distributed run
  setCentralWidget(tabs_);

  progress_->setRange(0, 100);
  progress_->setMaximumWidth(200);
  progress_->hide();
  cancel_->hide();
  statusBar()->addWidget(stage_, 1);
  statusBar()->addPermanentWidget(quality_);
  statusBar()->addPermanentWidget(progress_);
  statusBar()->addPermanentWidget(cancel_);
  stage_->setText(tr("Open a run database or trace (File \u203a Open, or drop files here)."));
  connect(cancel_, &QPushButton::clicked, loader_, &RunLoader::cancel);
  connect(loader_, &RunLoader::started, this, [this](const QStringList& paths) {
    progress_->setValue(0);
    progress_->show();
    cancel_->show();
    stage_->setText(tr("Opening %1\u2026").arg(paths.join(QStringLiteral(", "))));
  });
  connect(loader_, &RunLoader::progress, this, [this](double f, const QString& stage) {
    progress_->setValue(static_cast<int>(f * 100));
    stage_->setText(stage);
  });
  auto done = [this] {
    progress_->hide();
    cancel_->hide();
  };
  connect(loader_, &RunLoader::previewed, this, [this](const SessionPtr& s) { setPreview(s); });
  connect(loader_, &RunLoader::loaded, this, [this, done](SessionPtr s) {
    done();
    setSession(std::move(s));
  });
  connect(loader_, &RunLoader::failed, this, [this, done](const QString& message) {
    done();
    stage_->setText(tr("Could not open: %1").arg(message));
    showError(message);
  });
  connect(loader_, &RunLoader::canceled, this, [this, done] {
    done();
    stage_->setText(tr("Canceled."));
  });

  connect(tree_, &ModuleTreePage::moduleSelected, this,
          [this](const QString& p) { selectEverywhere(p, tree_); });
  connect(graph_, &GraphPage::moduleClicked, this, [this](const QString& p) { selectEverywhere(p, graph_); });
  connect(heatmap_, &HeatmapPage::moduleSelected, this,
          [this](const QString& p) { selectEverywhere(p, heatmap_); });
  connect(flame_, &FlamePage::moduleSelected, this,
          [this](const QString& p) { selectEverywhere(p, flame_); });
  connect(roofline_, &RooflinePage::moduleSelected, this,
          [this](const QString& p) { selectEverywhere(p, roofline_); });
  connect(diff_, &DiffPage::moduleSelected, this, [this](const QString& p) { selectEverywhere(p, diff_); });
  connect(ranks_, &RanksPage::moduleSelected, this,
          [this](const QString& p) { selectEverywhere(p, ranks_); });
  connect(ranks_, &RanksPage::rankSelected, this, [this](int index) {
    if (!session_ || !session_->ranks || index == session_->rank_index) return;
    if (index < 0 || index >= static_cast<int>(session_->ranks->runs.size())) return;
    setSession(session_for_rank(session_->ranks, index));
  });
  buildMenus();
  // 1400x900 where the screen has room; on a smaller one (1366x768) the window fits its available area,
  // so the headline, the status bar and the window's own buttons stay on screen. A size the user chose is
  // restored over this (restoreWindowState).
  const QScreen* screen = QGuiApplication::primaryScreen();
  resize(initialSize(screen != nullptr ? screen->availableGeometry().size() : QSize(1400, 900)));
}

QSize MainWindow::initialSize(const QSize& available) {
  return QSize(1400, 900).boundedTo(QSize(available.width() * 95 / 100, available.height() * 92 / 100));
}

void MainWindow::buildMenus() {
  QMenu* file = menuBar()->addMenu(tr("&File"));
  file->addAction(tr("&Open\u2026"), QKeySequence::Open, this, [this] {
    QStringList paths =
        QFileDialog::getOpenFileNames(this, tr("Open one run, two to compare, or the ranks of one run"),
                                      QString(), QString::fromLatin1(kFileFilter));
    if (!paths.isEmpty()) openFiles(paths);
  });
  file->addAction(tr("Open &Diff\u2026"), this, [this] {
    QString a = QFileDialog::getOpenFileName(this, tr("Run A (baseline)"), QString(),
                                             QString::fromLatin1(kFileFilter));
    if (a.isEmpty()) return;
    QString b = QFileDialog::getOpenFileName(this, tr("Run B"), QFileInfo(a).path(),
                                             QString::fromLatin1(kFileFilter));
    if (!b.isEmpty()) openFiles({a, b});
  });
  recent_menu_ = file->addMenu(tr("Open &Recent"));
  refreshRecentMenu();
  file->addAction(tr("Export graph\u2026"), this, [this] {
    QString path = QFileDialog::getSaveFileName(this, tr("Export graph"), QStringLiteral("graph.pdf"),
                                                tr("PDF (*.pdf);;SVG (*.svg);;PNG (*.png)"));
    if (path.isEmpty()) return;
    Status s = graph_->exportTo(path);
    if (!s.ok()) showError(QString::fromStdString(s.message()));
  });
  file->addSeparator();
  file->addAction(tr("&Quit"), QKeySequence::Quit, qApp, &QApplication::quit);
  QMenu* view = menuBar()->addMenu(tr("&View"));
  for (int i = 0; i < tabs_->count(); ++i) {
    QAction* a = view->addAction(tabs_->tabText(i), this, [this, i] { tabs_->setCurrentIndex(i); });
    a->setShortcut(QKeySequence(QStringLiteral("Ctrl+%1").arg(i + 1)));
    a->setData(QString::fromLatin1(kViewNames[i]));
  }
  view_menu_ = view;
  syncViewMenu();
  view->addSeparator();
  view->addAction(tr("Data &quality\u2026"), this, &MainWindow::showQuality);
  QMenu* help = menuBar()->addMenu(tr("&Help"));
  help->addAction(tr("&Keyboard shortcuts"), QKeySequence::HelpContents, this,
                  [this] { QMessageBox::information(this, tr("Keyboard shortcuts"), shortcutsText()); });
  help->addAction(tr("&About flopscope"), this, [this] {
    QMessageBox::about(
        this, tr("About flopscope"),
        tr("flopscope %1: per-module FLOPs, bytes and time of deep-learning inference, and diffs "
           "of model versions.")
            .arg(QCoreApplication::applicationVersion()));
  });
}

void MainWindow::syncViewMenu() {
  for (QAction* a : view_menu_->actions())
    for (int i = 0; i < static_cast<int>(std::size(kViewNames)) && i < tabs_->count(); ++i)
      if (a->data().toString() == QLatin1String(kViewNames[i])) a->setVisible(tabs_->isTabVisible(i));
}

QString MainWindow::qualityText() const {
  return quality_->text();
}

void MainWindow::showQuality() {
  QMessageBox::information(
      this, tr("Data quality"),
      quality_list_.isEmpty()
          ? tr("No data-quality rows: nothing was estimated, dropped or unmatched.")
          : tr("Rows from the runs' data-quality tables (file: [severity] id \u00d7count: what, detail); "
               "`flopscope report` prints the same:\n\n%1")
                .arg(quality_list_));
}

QString MainWindow::shortcutsText() const {
  QStringList lines;
  for (QAction* menu : menuBar()->actions()) {
    if (!menu->menu()) continue;
    for (QAction* a : menu->menu()->actions()) {
      if (a->shortcut().isEmpty() || !a->isVisible()) continue;  // Ranks only for a distributed run
      lines << QStringLiteral("%1\t%2").arg(
          a->shortcut().toString(QKeySequence::NativeText),
          QString(a->text()).remove(QLatin1Char('&')).remove(QChar(0x2026)));
    }
  }
  lines << tr("Click\tselect a module in every view")
        << tr("Double-click\tzoom the flame graph, expand a graph cluster");
  return lines.join(QLatin1Char('\n'));
}

void MainWindow::restoreWindowState() {
  QSettings settings;
  restoreGeometry(settings.value(QString::fromLatin1(kGeometryKey)).toByteArray());
  restoreState(settings.value(QString::fromLatin1(kStateKey)).toByteArray());
}

void MainWindow::closeEvent(QCloseEvent* event) {
  QSettings settings;
  settings.setValue(QString::fromLatin1(kGeometryKey), saveGeometry());
  settings.setValue(QString::fromLatin1(kStateKey), saveState());
  QMainWindow::closeEvent(event);
}

void MainWindow::openFiles(const QStringList& paths) {
  if (paths.isEmpty()) return;
  loader_->load(paths);
}

void MainWindow::setPreview(const SessionPtr& preview) {
  if (!preview) return;
  tree_->setSession(preview);
  tabs_->setCurrentWidget(tree_);
  stage_->setText(tr("Module totals of %1; reading its ops and kernels\u2026")
                      .arg(QFileInfo(preview->a->path).fileName()));
}

void MainWindow::setSession(SessionPtr session) {
  // Another rank of the open run keeps the current tab; a newly opened distributed run shows its Ranks tab.
  const bool new_rank_set = session && session->ranks && (!session_ || session_->ranks != session->ranks);
  session_ = std::move(session);
  if (!session_) return;
  setWindowTitle(QStringLiteral("flopscope \u2014 %1").arg(session_->title()));
  tree_->setSession(session_);
  graph_->setSession(session_);
  heatmap_->setSession(session_);
  flame_->setSession(session_);
  roofline_->setSession(session_);
  timeline_->setSession(session_);
  diff_->setSession(session_);
  ranks_->setSession(session_);
  tabs_->setTabVisible(tabs_->indexOf(ranks_), session_->has_ranks());
  syncViewMenu();
  QStringList paths;
  if (session_->ranks) {
    for (const auto& t : session_->ranks->report.ranks) paths << QString::fromStdString(t.path);
  } else {
    paths << session_->a->path;
    if (session_->b) paths << session_->b->path;
  }
  addRecent(paths);
  std::int64_t by_severity[3] = {0, 0, 0};  // info rows are notes, warnings and errors problems
  QStringList lines;
  for (const auto* run : {session_->a.get(), session_->b.get()}) {
    if (!run) continue;
    for (const auto& qi : run->summary.quality) {
      by_severity[static_cast<int>(qi.severity)] += qi.count;
      lines << QStringLiteral("%1: [%2] %3 \u00d7%4: %5 %6")
                   .arg(QFileInfo(run->path).fileName(), QString::fromLatin1(to_string(qi.severity)),
                        QString::fromUtf8(qi.id().data(), static_cast<qsizetype>(qi.id().size())))
                   .arg(qi.count)
                   .arg(QString::fromUtf8(qi.text().data(), static_cast<qsizetype>(qi.text().size())),
                        QString::fromStdString(qi.detail));
    }
  }
  const std::int64_t errors = by_severity[static_cast<int>(Severity::kError)],
                     warnings = by_severity[static_cast<int>(Severity::kWarning)];
  auto counted = [](std::int64_t n, const char* noun) { return QString::fromStdString(count_of(n, noun)); };
  quality_->setText(errors + warnings == 0
                        ? tr("no data-quality problems")
                        : tr("data quality: %1, %2 (View \u203a Data quality)")
                              .arg(counted(errors, "error"), counted(warnings, "warning")));
  quality_list_ = lines.join(QLatin1Char('\n'));
  quality_->setToolTip(quality_list_);
  stage_->setText(tr("%1: %2 modules, %3 ops, %4 kernels")
                      .arg(session_->title())
                      .arg(session_->a->data.modules.size())
                      .arg(session_->a->data.ops.size())
                      .arg(session_->a->data.kernels.size()));
  if (session_->is_diff()) {
    tabs_->setCurrentWidget(diff_);
    tree_->showChanges();  // every view has the session now: the selection reaches them all
  }
  if (new_rank_set) tabs_->setCurrentWidget(ranks_);
  Q_EMIT sessionShown();
}

bool MainWindow::showView(const QString& name) {
  QWidget* pages[] = {tree_, graph_, heatmap_, flame_, roofline_, timeline_, diff_, ranks_};
  static_assert(std::size(pages) == std::size(kViewNames));
  for (std::size_t i = 0; i < std::size(pages); ++i)
    if (name == QLatin1String(kViewNames[i])) {
      tabs_->setCurrentWidget(pages[i]);
      return true;
    }
  return false;
}

QWidget* MainWindow::currentView() const {
  return tabs_->currentWidget();
}

void MainWindow::selectEverywhere(const QString& path, QObject* origin) {
  if (origin != tree_) tree_->selectModule(path);
  graph_->highlightModule(path);
  if (origin != heatmap_) heatmap_->selectModule(path);
  if (origin != flame_) flame_->selectModule(path);
  if (origin != roofline_) roofline_->selectModule(path);
  if (origin != ranks_) ranks_->selectModule(path);
}

void MainWindow::showError(const QString& message) {
  last_error_ = message;
  // Window-modal but not blocking: the event loop (and any running load) carries on.
  auto* box = new QMessageBox(QMessageBox::Warning, tr("flopscope"), message, QMessageBox::Ok, this);
  box->setAttribute(Qt::WA_DeleteOnClose);
  box->open();
  Q_EMIT errorShown(message);
}

QStringList MainWindow::recentFiles() const {
  return QSettings().value(QString::fromLatin1(kRecentKey)).toStringList();
}

void MainWindow::addRecent(const QStringList& paths) {
  QStringList abs;
  for (const auto& p : paths) abs << QFileInfo(p).absoluteFilePath();
  // One entry per opening; a diff's two paths are joined by a tab (never in a file name we produce).
  const QString entry = abs.join(QLatin1Char('\t'));
  QStringList list = recentFiles();
  list.removeAll(entry);
  list.prepend(entry);
  while (list.size() > kMaxRecent) list.removeLast();
  QSettings().setValue(QString::fromLatin1(kRecentKey), list);
  refreshRecentMenu();
}

void MainWindow::refreshRecentMenu() {
  if (!recent_menu_) return;
  recent_menu_->clear();
  const QStringList list = recentFiles();
  for (const QString& entry : list) {
    QStringList paths = entry.split(QLatin1Char('\t'));
    QStringList names;
    for (const auto& p : paths) names << QFileInfo(p).fileName();
    recent_menu_->addAction(names.join(QStringLiteral(" \u2192 ")), this, [this, paths] { openFiles(paths); })
        ->setToolTip(paths.join(QLatin1Char('\n')));
  }
  recent_menu_->setEnabled(!list.isEmpty());
}

void MainWindow::dragEnterEvent(QDragEnterEvent* event) {
  if (event->mimeData()->hasUrls()) event->acceptProposedAction();
}

void MainWindow::dropEvent(QDropEvent* event) {
  QStringList paths;
  for (const QUrl& url : event->mimeData()->urls())
    if (url.isLocalFile()) paths << url.toLocalFile();
  if (!paths.isEmpty()) {
    event->acceptProposedAction();
    openFiles(paths);
  }
}

}  // namespace flopscope::gui
