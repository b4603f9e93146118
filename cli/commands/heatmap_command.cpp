// flopscope heatmap RUN -o OUT.png: the GUI's latency heatmap (top modules by self time per iteration, and
// the slowest module's histogram with P50/P90/P99), rendered headless for CI reviews. The data comes from
// analyzer/heatmap, the picture from graphs/ through Graphviz: no Qt, no display. -o M.csv writes the
// matrix (modules x iterations, ns) instead.
#include <cstdio>
#include <filesystem>

#include "analyzer/analysis/run_analysis.h"
#include "analyzer/format.h"
#include "analyzer/heatmap.h"
#include "analyzer/summary.h"
#include "cli/command.h"
#include "cli/iteration_marker_option.h"
#include "db/model/atomic_file.h"
#include "graphs/heatmap_dot.h"
#include "graphs/output_format.h"
#include "graphs/render.h"

namespace flopscope::cli {
namespace {

class HeatmapCommand final : public Command {
 public:
  void setup(CLI::App& app) override {
    app.add_option("run", path_, "Run database (or trace file)")->required();
    app.add_option("-o,--output", output_, "File to write: .png, .svg, .pdf, .dot or .csv (the matrix)")
        ->required();
    app.add_option("--top", top_, "Number of modules (rows), slowest first (default 20)")
        ->check(CLI::Range(1, 500));
    add_iteration_marker_option(app, iteration_marker_);
    app.add_option("--size", size_, "Picture size WIDTHxHEIGHT in pixels (default 1400x900)");
    app.add_flag("-f,--force", force_, "Overwrite the output file");
  }

  int run() override {
    int w = 0, h = 0;
    if (std::sscanf(size_.c_str(), "%dx%d", &w, &h) != 2 || w < 200 || h < 200 || w > 20000 || h > 20000)
      return report_error(
          InvalidArgument("--size must be WIDTHxHEIGHT between 200 and 20000, got '" + size_ + "'"));
    const bool csv = std::filesystem::path(output_).extension() == ".csv";
    StatusOr<graphs::GraphFormat> format = graphs::GraphFormat::kPng;  // unused for .csv
    if (!csv) format = graphs::format_from_path(output_);
    if (!format.ok()) return report_error(format.status());
    Status ok = check_output_path(output_, force_);
    if (!ok.ok()) return report_error(ok);
    // Per-module self time per iteration is all the heatmap shows: the facade reads the run's stored facts
    // or aggregates, without the op and kernel rows.
    AnalysisNeeds needs;
    needs.totals_only = true;
    needs.iteration_marker = iteration_marker_;
    StatusOr<RunAnalysis> run = RunAnalysis::open(path_, needs);
    if (!run.ok()) return report_error(run.status());
    const HeatmapData& data = run->heatmap(static_cast<std::size_t>(top_));
    // Every writer says what it wrote, as flame and roofline do.
    auto wrote = [&] {
      std::fprintf(stderr, "flopscope: wrote %s: %s x %s\n", output_.c_str(),
                   count_of(static_cast<long long>(data.rows.size()), "module").c_str(),
                   count_of(data.iterations, "iteration").c_str());
      return kExitOk;
    };
    if (csv) {
      Status st = write_file_atomically(output_, heatmap_csv(data), force_);
      return st.ok() ? wrote() : report_error(st);
    }
    graphs::HeatmapPictureOptions picture;
    picture.width = w;
    picture.height = h;
    picture.title = "Latency heatmap: " + std::filesystem::path(path_).filename().string() + " (" +
                    count_of(data.iterations, "iteration") + ")";
    picture.selected_row = data.rows.empty() ? -1 : 0;
    graphs::RenderOptions render;
    render.png_dpi = 72;  // one point per pixel: --size is the PNG's size
    render.engine = graphs::kHeatmapEngine;
    StatusOr<std::string> bytes =
        graphs::render_dot(graphs::write_heatmap_dot(data, picture), *format, render);
    if (!bytes.ok()) return report_error(bytes.status());
    Status st = write_file_atomically(output_, *bytes, force_);
    return st.ok() ? wrote() : report_error(st);
  }

 private:
  std::string path_, output_, size_ = "1400x900", iteration_marker_;
  int top_ = 20;
  bool force_ = false;
};

}  // namespace

FLOPSCOPE_REGISTER_COMMAND(HeatmapCommand, "heatmap", "Latency heatmap of a run as a picture (headless)", 60);

}  // namespace flopscope::cli
