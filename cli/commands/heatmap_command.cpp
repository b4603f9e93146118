// flopscope heatmap RUN -o OUT.png: the GUI's latency heatmap (top modules by self time per iteration, and
// the slowest module's histogram with P50/P90/P99), rendered headless for CI reviews.
#include <QBuffer>
#include <QFont>
#include <QFileInfo>
#include <QGuiApplication>
#include <QImage>
#include <cstdio>
#include <memory>

#include "analyzer/summary.h"
#include "cli/command.h"
#include "cli/run_input.h"
#include "db/model/atomic_file.h"
#include "gui/models/heatmap_model.h"
#include "gui/models/heatmap_painter.h"

namespace flopscope::cli {
namespace {

// A CLI stays quiet: Qt's platform notes (offscreen plugin, XDG_RUNTIME_DIR) are not for the user.
void quiet_qt(QtMsgType type, const QMessageLogContext&, const QString& message) {
  if (type == QtCriticalMsg || type == QtFatalMsg) std::fprintf(stderr, "%s\n", message.toLocal8Bit().constData());
}

class HeatmapCommand final : public Command {
 public:
  void setup(CLI::App& app) override {
    app.add_option("run", path_, "Run database (or trace file)")->required();
    app.add_option("-o,--output", output_, "PNG file to write")->required();
    app.add_option("--top", top_, "Number of modules (rows), slowest first (default 20)")->check(CLI::Range(1, 500));
    app.add_option("--size", size_, "Picture size WIDTHxHEIGHT (default 1400x900)");
    app.add_flag("--force", force_, "Overwrite the output file");
  }

  int run() override {
    int w = 0, h = 0;
    if (std::sscanf(size_.c_str(), "%dx%d", &w, &h) != 2 || w < 200 || h < 200 || w > 20000 || h > 20000)
      return report_error(InvalidArgument("--size must be WIDTHxHEIGHT between 200 and 20000, got '" + size_ + "'"));
    if (QFileInfo(QString::fromStdString(output_)).suffix().toLower() != QLatin1String("png"))
      return report_error(InvalidArgument(output_ + ": the heatmap is written as PNG (use a .png name)"));
    Status ok = check_output_path(output_, force_);
    if (!ok.ok()) return report_error(ok);
    StatusOr<RunData> run = open_run(path_);
    if (!run.ok()) return report_error(run.status());
    RunSummary summary = summarize(*run);
    gui::HeatmapData data = gui::heatmap_data(summary, static_cast<std::size_t>(top_));

    // Text needs a QGuiApplication; the offscreen platform needs no display.
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM")) qputenv("QT_QPA_PLATFORM", "offscreen");
    qInstallMessageHandler(quiet_qt);
    static int argc = 1;
    static char name[] = "flopscope";
    static char* argv[] = {name, nullptr};
    std::unique_ptr<QGuiApplication> app;
    if (!QGuiApplication::instance()) app = std::make_unique<QGuiApplication>(argc, argv);
    const QString title = QStringLiteral("Latency heatmap: %1 (%2 iterations)")
                              .arg(QFileInfo(QString::fromStdString(path_)).fileName())
                              .arg(data.iterations);
    QImage image = gui::render_heatmap_image(data, QSize(w, h), {title, data.rows.empty() ? -1 : 0, QFont()});
    QByteArray bytes;
    QBuffer buffer(&bytes);
    buffer.open(QIODevice::WriteOnly);
    if (!image.save(&buffer, "PNG")) return report_error(IoError(output_ + ": could not encode PNG"));
    Status st = write_file_atomically(output_, std::string_view(bytes.constData(), bytes.size()), force_);
    return st.ok() ? kExitOk : report_error(st);
  }

 private:
  std::string path_, output_, size_ = "1400x900";
  int top_ = 20;
  bool force_ = false;
};

}  // namespace

FLOPSCOPE_REGISTER_COMMAND(HeatmapCommand, "heatmap", "Latency heatmap of a run as a PNG (headless)", 60);

}  // namespace flopscope::cli
