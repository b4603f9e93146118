// flopscope-gui [FILE [FILE2]]: opens one run, or two to compare; run.rank*.db (or a folder of ranks): the
// ranks of one distributed run.
// flopscope-gui --screenshot OUT.png --view tree|graph|heatmap|flame|roofline|timeline|diff|ranks FILES...:
// renders one view to a PNG and exits (docs, tests); input errors print one line on stderr and exit 2.
// flopscope-gui --dump tree|diff|kernels|ops|candidates|ranks|roofline FILES...: prints that view's table as
// tab-separated text (gui/models/view_dump.h) and exits; bad input: `flopscope: error: FILE: problem`,
// exit 2.
#include <QApplication>
#include <QCommandLineParser>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "analyzer/diff/path_map_specs.h"
#include "db/model/text_escape.h"
#include "gui/models/run_loader.h"
#include "gui/models/view_dump.h"
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

std::vector<std::string> strings(const QStringList& list) {
  std::vector<std::string> out;
  for (const QString& s : list) out.push_back(s.toStdString());
  return out;
}

// --map / --map-a / --map-b / --no-align, parsed by the core as `flopscope diff` parses them.
flopscope::Status diff_options(const QCommandLineParser& args, flopscope::DiffOptions& options) {
  return flopscope::parse_path_maps(
      {strings(args.values(QStringLiteral("map"))), strings(args.values(QStringLiteral("map-a"))),
       strings(args.values(QStringLiteral("map-b"))), args.isSet(QStringLiteral("no-align"))},
      options);
}

int screenshot(const QCommandLineParser& args, const QStringList& files,
               const flopscope::DiffOptions& options) {
  using namespace flopscope::gui;
  if (files.isEmpty())
    return fail(QStringLiteral("--screenshot needs one or two run files, or the ranks of one run"));
  auto session = load_session(files, {}, options);
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
        QStringLiteral("unknown view '%1' (tree, graph, heatmap, flame, roofline, timeline, diff, ranks)")
            .arg(view));
  window.show();
  QApplication::processEvents();
  if (args.isSet(QStringLiteral("expect-vanished")) || args.isSet(QStringLiteral("forbid-active"))) {
    window.diffPage()->setGates(args.value(QStringLiteral("expect-vanished")),
                                args.value(QStringLiteral("forbid-active")), {});
    window.diffPage()->evaluateGates();
  }
  if (args.isSet(QStringLiteral("select")))
    window.treePage()->selectModule(args.value(QStringLiteral("select")));
  if (view == QLatin1String("graph")) window.graphPage()->showTop();
  if (args.isSet(QStringLiteral("select")) && view == QLatin1String("graph"))
    window.graphPage()->highlightModule(args.value(QStringLiteral("select")));
  QApplication::processEvents();
  flopscope::Status s = save_image(window.grab().toImage(), args.value(QStringLiteral("screenshot")));
  if (!s.ok()) return fail(QString::fromStdString(s.message()));
  return 0;
}

// The same session the window opens, one view's table on stdout. Errors name the file, as the CLI's do.
int dump(const QCommandLineParser& args, const QStringList& files, const flopscope::DiffOptions& options) {
  using namespace flopscope::gui;
  auto error = [](const QString& what, const QString& problem) {
    // One line whatever a file name holds: control characters escaped as on the CLI's terminal.
    const std::string text =
        flopscope::terminal_safe((what + QStringLiteral(": ") + problem).toStdString(), false);
    std::fprintf(stderr, "flopscope: error: %s\n", text.c_str());
    return 2;
  };
  const QString view = args.value(QStringLiteral("dump"));
  if (!dump_views().contains(view))
    return error(QStringLiteral("--dump"),
                 QStringLiteral("unknown view '%1' (%2)").arg(view, dump_views().join(QStringLiteral(", "))));
  if (files.isEmpty())
    return error(QStringLiteral("--dump"),
                 QStringLiteral("needs one or two run files, or the ranks of one run"));
  auto session = load_session(files, {}, options);
  // load_session's messages already lead with the file they are about.
  if (!session.ok()) {
    std::fprintf(stderr, "flopscope: error: %s\n",
                 flopscope::terminal_safe(session.status().message(), false).c_str());
    return 2;
  }
  auto table = dump_view(*session, view);
  if (!table.ok())
    return error(files.join(QLatin1Char(' ')), QString::fromStdString(table.status().message()));
  const QByteArray text = table->toUtf8();
  std::fwrite(text.constData(), 1, static_cast<std::size_t>(text.size()), stdout);
  return std::fflush(stdout) == 0 ? 0 : 2;
}

}  // namespace

// Screenshot mode is a batch tool: Qt's platform chatter (offscreen plugin, XDG_RUNTIME_DIR) would bury the
// one-line error that scripts read, so only critical messages pass.
static void quiet_handler(QtMsgType type, const QMessageLogContext&, const QString& message) {
  if (type == QtCriticalMsg || type == QtFatalMsg)
    std::fprintf(stderr, "%s\n", message.toLocal8Bit().constData());
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
    const bool dump = std::strcmp(a, "--dump") == 0 || std::strncmp(a, "--dump=", 7) == 0;
    if (batch || dump || (shot && !has_display)) {
      setenv("QT_QPA_PLATFORM", "offscreen", 1);
      return;
    }
  }
}

int main(int argc, char** argv) {
  use_offscreen_without_display(argc, argv);
  for (int i = 1; i < argc; ++i)
    if (std::strcmp(argv[i], "--screenshot") == 0 || std::strncmp(argv[i], "--screenshot=", 13) == 0 ||
        std::strcmp(argv[i], "--dump") == 0 || std::strncmp(argv[i], "--dump=", 7) == 0)
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
  args.addOption({QStringLiteral("screenshot"), QStringLiteral("Render a view to OUT.png and exit."),
                  QStringLiteral("OUT.png")});
  args.addOption(
      {QStringLiteral("view"),
       QStringLiteral(
           "View to show (with --screenshot, the one rendered): tree, graph, heatmap, flame, roofline, "
           "timeline, diff, ranks."),
       QStringLiteral("VIEW"), QStringLiteral("tree")});
  args.addOption(
      {QStringLiteral("dump"),
       QStringLiteral("Print a view's table as tab-separated text and exit: tree, diff, kernels, ops, "
                      "candidates, ranks, roofline."),
       QStringLiteral("VIEW")});
  // As `flopscope diff` and `graph --diff` take them (cli/path_map_options): the diff view, tree and graph
  // pair modules as the CLI's diff does.
  args.addOption(
      {QStringLiteral("map"),
       QStringLiteral("Rename module paths before matching: 'REGEX=REPLACEMENT' (RE2 syntax, $1 for groups), "
                      "applied to both sides; repeatable"),
       QStringLiteral("MAP")});
  args.addOption({QStringLiteral("map-a"), QStringLiteral("As --map, for A only (after --map); repeatable"),
                  QStringLiteral("MAP")});
  args.addOption({QStringLiteral("map-b"), QStringLiteral("As --map, for B only (after --map); repeatable"),
                  QStringLiteral("MAP")});
  args.addOption(
      {QStringLiteral("no-align"),
       QStringLiteral("Match ModuleList/Sequential/ModuleDict children by name only (default: by structure "
                      "and weights)")});
  args.addOption({QStringLiteral("select"), QStringLiteral("Select (and highlight) this module path."),
                  QStringLiteral("PATH")});
  args.addOption(
      {QStringLiteral("size"), QStringLiteral("Window size for --screenshot."), QStringLiteral("WxH")});
  args.addOption({QStringLiteral("expect-vanished"),
                  QStringLiteral("Diff gate: modules matching these globs vanished."),
                  QStringLiteral("GLOBS")});
  args.addOption({QStringLiteral("forbid-active"),
                  QStringLiteral("Diff gate: nothing matching these globs is alive in B."),
                  QStringLiteral("GLOBS")});
  args.process(app);
  const QStringList files = args.positionalArguments();
  flopscope::DiffOptions options;
  if (flopscope::Status s = diff_options(args, options); !s.ok()) {
    std::fprintf(stderr, "flopscope: error: %s\n", flopscope::terminal_safe(s.message(), false).c_str());
    return 2;
  }
  if (args.isSet(QStringLiteral("dump"))) return dump(args, files, options);
  if (args.isSet(QStringLiteral("screenshot"))) return screenshot(args, files, options);
  flopscope::gui::MainWindow window;
  window.loader()->setDiffOptions(options);
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
      window.diffPage()->setGates(args.value(QStringLiteral("expect-vanished")),
                                  args.value(QStringLiteral("forbid-active")), {});
      window.diffPage()->evaluateGates();
    });
  window.openFiles(files);
  return QApplication::exec();
}
