// gui_open_bench [KERNELS] [DIR]: writes a run database with KERNELS kernels (default 1,000,000; each
// launched by one op, so 2M timeline events), then times what a user waits for: reading the file,
// summarising it, building the session (module tree, timeline index) and showing the window's first view
// (module tree) and then the timeline. The first view is the module tree from the stored summary facts
// (load_preview, what RunLoader shows first); the target for it is under 1 s (issue #18). Prints each
// stage, that first view and the whole session's.
#include <QApplication>
#include <QDir>
#include <QElapsedTimer>
#include <cstdio>
#include <cstdlib>
#include <filesystem>

#include "analyzer/analysis/load_run.h"
#include "analyzer/summary_facts_sink.h"
#include "db/run_database.h"
#include "gui/models/run_loader.h"
#include "gui/models/session.h"
#include "gui/views/main_window.h"
#include "gui/views/timeline_page.h"
#include "gui/views/timeline_widget.h"
#include "tests/unit/gui/fixture_runs.h"

using namespace flopscope::gui;

int main(int argc, char** argv) {
  qputenv("QT_QPA_PLATFORM", "offscreen");
  QApplication app(argc, argv);
  const std::size_t kernels = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : 1000000;
  const QString dir = argc > 2 ? QString::fromLocal8Bit(argv[2]) : QDir::tempPath();
  const std::string path = (dir + QStringLiteral("/gui_open_bench.db")).toStdString();
  std::printf("writing %zu kernels to %s ...\n", kernels, path.c_str());
  {
    // Written as `flopscope profile` writes a run: rows, aggregates and the summary facts the preview reads.
    std::filesystem::remove(path);
    auto sink = flopscope::create_run_database(path, true);
    const flopscope::Status written =
        sink.ok() ? flopscope::write_run_with_facts(**sink, testing::large_run(kernels)) : sink.status();
    if (!written.ok()) {
      std::fprintf(stderr, "%s\n", written.message().c_str());
      return 2;
    }
  }

  QElapsedTimer total, stage;
  total.start();
  stage.start();
  auto data = flopscope::load_run(path);
  if (!data.ok()) {
    std::fprintf(stderr, "%s\n", data.status().message().c_str());
    return 2;
  }
  const double t_read_only = stage.restart() / 1000.0;
  data = flopscope::RunData();
  MainWindow window;
  window.resize(1400, 900);
  window.show();
  QApplication::processEvents();
  // What the app shows first (RunLoader): the module tree from the stored summary facts, painted.
  total.restart();
  auto preview = load_preview({QString::fromStdString(path)});
  if (!preview.ok()) {
    std::fprintf(stderr, "no preview: %s\n", preview.status().message().c_str());
    return 2;
  }
  const double t_preview_load = total.elapsed() / 1000.0;
  window.setPreview(*preview);
  QApplication::processEvents();
  (void)window.grab();  // forces the first paint of the module tree
  const double t_preview = total.elapsed() / 1000.0;
  // Then the whole session, as before the preview: read, then summary and timeline index side by side,
  // then every page.
  total.restart();
  auto loaded = load_session({QString::fromStdString(path)});
  if (!loaded.ok()) return 2;
  SessionPtr session = *loaded;
  const double t_load = stage.restart() / 1000.0;
  window.setSession(session);  // on the GUI thread: must stay short
  const double t_set = stage.elapsed() / 1000.0;
  QApplication::processEvents();
  (void)window.grab();  // forces the first paint of the module tree
  const double t_first_view = stage.restart() / 1000.0;
  const double t_total = total.elapsed() / 1000.0;
  window.showView(QStringLiteral("timeline"));
  stage.restart();
  (void)window.grab();
  const double t_timeline = stage.restart() / 1000.0;
  window.timelinePage()->timeline()->resetZoom();
  (void)window.grab();
  const double t_timeline_all = stage.elapsed() / 1000.0;
  std::printf("reading the database alone: %.3f s\n", t_read_only);
  std::printf("load (read + summary + timeline index + module tree) %.3f s, first view %.3f s\n", t_load,
              t_first_view);
  std::printf("GUI thread: setSession %.3f s (all pages), then first paint %.3f s\n", t_set,
              t_first_view - t_set);
  std::printf("preview: stored summary read and summarised %.3f s, module tree painted at %.3f s\n",
              t_preview_load, t_preview);
  std::printf("open to first view: %.3f s (target < 1 s: %s)\n", t_preview, t_preview < 1 ? "met" : "MISSED");
  std::printf("open to the whole session's first view: %.3f s\n", t_total);
  std::printf("timeline paint: first iteration %.3f s, whole run (%zu events, %zu spans drawn) %.3f s\n",
              t_timeline, session->timeline().event_count(),
              window.timelinePage()->timeline()->lastPaintedSpans(), t_timeline_all);
  return 0;
}
