// flopscope roofline RUN -o OUT.svg: every module's own work placed by arithmetic intensity and achieved
// FLOP/s under the device's roof (the peak table, or --peak for CPU runs and unlisted devices).
#include <cstdio>
#include <filesystem>

#include "analyzer/analysis/run_analysis.h"
#include "analyzer/format.h"
#include "analyzer/peaks.h"
#include "cli/command.h"
#include "cli/iteration_marker_option.h"
#include "cli/run_input.h"
#include "db/model/atomic_file.h"
#include "graphs/roofline_plot.h"

namespace flopscope::cli {
namespace {

class RooflineCommand final : public Command {
 public:
  void setup(CLI::App& app) override {
    app.add_option("run", path_, "Run database or trace file")->required();
    app.add_option("-o,--output", output_, "SVG file to write")->required();
    app.add_option("--peak", peak_,
                   "The roof as FLOPS:BYTES_PER_S (e.g. 989e12:3.35e12); default the device's entry in the "
                   "peak table, none for CPU runs");
    add_iteration_marker_option(app, iteration_marker_);
    app.add_option("--width", width_, "Picture width in pixels")
        ->default_val(1000)
        ->check(CLI::Range(400, 20000));
    app.add_flag("-f,--force", force_, "Overwrite the output file");
  }

  int run() override {
    if (std::filesystem::path(output_).extension() != ".svg")
      return report_error(InvalidArgument(output_ + ": the roofline is written as SVG (use a .svg name)"));
    if (Status s = check_distinct_paths({output_}, {path_}); !s.ok()) return report_error(s);
    if (Status s = check_output_path(output_, force_); !s.ok()) return report_error(s);
    SummaryOptions options;
    if (!peak_.empty()) {
      auto peak = parse_peak(peak_);
      if (!peak.ok()) return report_error(peak.status());
      options.peak = *peak;
    }
    // Per-module costs and times are all a roofline plots: the facade reads the stored summary facts.
    AnalysisNeeds needs;
    needs.summary = options;
    needs.iteration_marker = iteration_marker_;
    StatusOr<RunAnalysis> run = RunAnalysis::open(path_, needs);
    if (!run.ok()) return report_error(run.status());
    const graphs::RooflinePlot& plot = run->roofline();
    if (plot.points.empty()) {
      return report_error(InvalidArgument(path_ + ": nothing to plot: no module has FLOPs, " +
                                          plot.bytes_kind + " and " + plot.clock + " of its own"));
    }
    const int height = width_ * 7 / 10;
    std::string title = "Roofline: " + std::filesystem::path(path_).filename().string();
    Status st = write_file_atomically(output_, graphs::roofline_svg(plot, title, width_, height), force_);
    if (!st.ok()) return report_error(st);
    std::fprintf(stderr, "flopscope: wrote %s: %s; x %s, y over %s (%s)%s\n", output_.c_str(),
                 count_of(static_cast<long long>(plot.points.size()), "module").c_str(),
                 plot.bytes_kind.c_str(), plot.clock.c_str(),
                 count_of(run->summary().iterations, "iteration").c_str(),
                 plot.peak ? (", roof " + plot.peak->name).c_str() : ", no roof (--peak sets one)");
    return kExitOk;
  }

 private:
  std::string path_, output_, peak_, iteration_marker_;
  int width_ = 1000;
  bool force_ = false;
};

}  // namespace

FLOPSCOPE_REGISTER_COMMAND(
    RooflineCommand, "roofline",
    "Roofline plot of a run's modules (arithmetic intensity vs achieved FLOP/s) as SVG", 56);

}  // namespace flopscope::cli
