// flopscope-gui [FILE [FILE2]]: opens one run, or two to compare; run.rank*.db (or a folder of ranks): the
// ranks of one distributed run.
// flopscope-gui --screenshot OUT.png --view tree|graph|heatmap|flame|roofline|timeline|diff|ranks FILES...: renders
// one view to a PNG and exits (docs, tests); input errors print one line on stderr and exit 2.
#include <QApplication>
#include <QCommandLineParser>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "gui/models/run_loader.h"
#include "gui/views/diff_page.h"
#include "gui/views/export.h"
#include "gui/views/graph_page.h"
#include "gui/views/main_window.h"
#include "gui/views/module_tree_page.h"

namespace {

int fail(const QString& message) {
  std::fprintf(stderr, "flopscope-gui: error: %s\n", message.toLocal8Bit().constData());
  return 2;
}

int screenshot(const QCommandLineParser& args, const QStringList& files) {
  using namespace flopscope::gui;
  if (files.isEmpty())
    return fail(QStringLiteral("--screenshot needs one or two run files, or the ranks of one run"));
  auto session = load_session(files);
  if (!session.ok()) return fail(QString::fromStdString(session.status().message()));
  MainWindow window;
  QSize size(1400, 900);
  if (args.isSet(QStringLiteral("size"))) {
    QStringList wh = args.value(QStringLiteral("size")).split(QLatin1Char('x'));
    if (wh.size() != 2 || wh[0].toInt() < 200 || wh[1].toInt() < 200)
      return fail(QStringLiteral("--size must be WIDTHxHEIGHT, at least 200x200"));
    size = QSize(wh[0].toInt(), wh[1].toInt());
  }
  window.resize(size);
  window.setSession(*session);
  const QString view = args.value(QStringLiteral("view"));
  if (!window.showView(view))
    return fail(
        QStringLiteral("unknown view '%1' (tree, graph, heatmap, flame, roofline, timeline, diff, ranks)").arg(view));
  window.show();
  QApplication::processEvents();
  if (args.isSet(QStringLiteral("expect-vanished")) || args.isSet(QStringLiteral("forbid-active"))) {
    window.diffPage()->setGates(args.value(QStringLiteral("expect-vanished")), args.value(QStringLiteral("forbid-active")), {});
    window.diffPage()->evaluateGates();
  }
  if (args.isSet(QStringLiteral("select"))) window.treePage()->selectModule(args.value(QStringLiteral("select")));
  if (view == QLatin1String("graph")) window.graphPage()->showTop();
  if (args.isSet(QStringLiteral("select")) && view == QLatin1String("graph"))
    window.graphPage()->highlightModule(args.value(QStringLiteral("select")));
  QApplication::processEvents();
  flopscope::Status s = save_image(window.grab().toImage(), args.value(QStringLiteral("screenshot")));
  if (!s.ok()) return fail(QString::fromStdString(s.message()));
  return 0;
}

}  // namespace

// Screenshot mode is a batch tool: Qt's platform chatter (offscreen plugin, XDG_RUNTIME_DIR) would bury the
// one-line error that scripts read, so only critical messages pass.
static void quiet_handler(QtMsgType type, const QMessageLogContext&, const QString& message) {
  if (type == QtCriticalMsg || type == QtFatalMsg) std::fprintf(stderr, "%s\n", message.toLocal8Bit().constData());
}

// --help, --version and --screenshot need no window: on a machine without a display they use the
// offscreen platform instead of aborting in the xcb plugin. An explicit QT_QPA_PLATFORM wins.
static void use_offscreen_without_display(int argc, char** argv) {
  if (std::getenv("QT_QPA_PLATFORM") != nullptr) return;
  const bool has_display = std::getenv("DISPLAY") != nullptr || std::getenv("WAYLAND_DISPLAY") != nullptr;
  for (int i = 1; i < argc; ++i) {
    const char* a = argv[i];
    const bool batch = std::strcmp(a, "--help") == 0 || std::strcmp(a, "-h") == 0 ||
                       std::strcmp(a, "--help-all") == 0 || std::strcmp(a, "--version") == 0 ||
                       std::strcmp(a, "-v") == 0;
    const bool shot = std::strcmp(a, "--screenshot") == 0 || std::strncmp(a, "--screenshot=", 13) == 0;
    if (batch || (shot && !has_display)) {
      setenv("QT_QPA_PLATFORM", "offscreen", 1);
      return;
    }
  }
}

int main(int argc, char** argv) {
  use_offscreen_without_display(argc, argv);
  for (int i = 1; i < argc; ++i)
    if (std::strcmp(argv[i], "--screenshot") == 0 || std::strncmp(argv[i], "--screenshot=", 13) == 0)
      qInstallMessageHandler(quiet_handler);
  QApplication app(argc, argv);
  QApplication::setOrganizationName(QStringLiteral("flopscope"));
  QApplication::setApplicationName(QStringLiteral("flopscope-gui"));
  QApplication::setApplicationVersion(QStringLiteral(FLOPSCOPE_GUI_VERSION));
  QCommandLineParser args;
  args.setApplicationDescription(
      QStringLiteral("flopscope desktop app: module tree, graph, latency heatmap, flame graph, "
                     "timeline and diff of one or two runs; ranks of a distributed run."));
  args.addHelpOption();
  args.addVersionOption();
  args.addPositionalArgument(
      QStringLiteral("files"),
      QStringLiteral("one run database or trace, two to compare, or the ranks of one run "
                     "(run.rank*.db, one trace per rank, or their folder)"),
      QStringLiteral("[FILE [FILE2] | RANK FILES... | FOLDER]"));
  args.addOption({QStringLiteral("screenshot"), QStringLiteral("Render a view to OUT.png and exit."), QStringLiteral("OUT.png")});
  args.addOption(
      {QStringLiteral("view"),
       QStringLiteral("View to show (with --screenshot, the one rendered): tree, graph, heatmap, flame, roofline, "
                      "timeline, diff, ranks."),
       QStringLiteral("VIEW"), QStringLiteral("tree")});
  args.addOption({QStringLiteral("select"), QStringLiteral("Select (and highlight) this module path."), QStringLiteral("PATH")});
  args.addOption({QStringLiteral("size"), QStringLiteral("Window size for --screenshot."), QStringLiteral("WxH")});
  args.addOption({QStringLiteral("expect-vanished"), QStringLiteral("Diff gate: modules matching these globs vanished."),
                  QStringLiteral("GLOBS")});
  args.addOption({QStringLiteral("forbid-active"), QStringLiteral("Diff gate: nothing matching these globs is alive in B."),
                  QStringLiteral("GLOBS")});
  args.process(app);
  const QStringList files = args.positionalArguments();
  if (args.isSet(QStringLiteral("screenshot"))) return screenshot(args, files);
  flopscope::gui::MainWindow window;
  window.restoreWindowState();
  window.show();
  if (args.isSet(QStringLiteral("view")))
    QObject::connect(&window, &flopscope::gui::MainWindow::sessionShown, &window,
                     [&] { window.showView(args.value(QStringLiteral("view"))); });
  if (args.isSet(QStringLiteral("select")))
    QObject::connect(&window, &flopscope::gui::MainWindow::sessionShown, &window,
                     [&] { window.treePage()->selectModule(args.value(QStringLiteral("select"))); });
  if (args.isSet(QStringLiteral("expect-vanished")) || args.isSet(QStringLiteral("forbid-active")))
    QObject::connect(&window, &flopscope::gui::MainWindow::sessionShown, &window, [&] {
      window.diffPage()->setGates(args.value(QStringLiteral("expect-vanished")), args.value(QStringLiteral("forbid-active")), {});
      window.diffPage()->evaluateGates();
    });
  window.openFiles(files);
  return app.exec();
}
