// flopscope flame RUN -o OUT.svg: the module icicle (flame graph of the module tree) as a standalone SVG,
// widths by inclusive time, FLOPs or bytes per iteration. The GUI's Flame page draws the same cells.
#include <cstdio>
#include <filesystem>

#include "analyzer/analysis/run_analysis.h"
#include "analyzer/format.h"
#include "cli/command.h"
#include "cli/iteration_marker_option.h"
#include "cli/run_input.h"
#include "db/model/atomic_file.h"
#include "graphs/icicle.h"

namespace flopscope::cli {
namespace {

class FlameCommand final : public Command {
 public:
  void setup(CLI::App& app) override {
    app.add_option("run", path_, "Run database or trace file")->required();
    app.add_option("-o,--output", output_, "SVG file to write")->required();
    app.add_option("--metric", metric_, "Widths by time (device time on GPU runs), flops or bytes")
        ->default_val("time")
        ->check(CLI::IsMember({"time", "flops", "bytes"}));
    app.add_option("--root", root_, "Module path drawn full width (zoom); default the whole model");
    add_iteration_marker_option(app, iteration_marker_);
    app.add_option("--width", width_, "Picture width in pixels")
        ->default_val(1600)
        ->check(CLI::Range(400, 20000));
    app.add_flag("-f,--force", force_, "Overwrite the output file");
  }

  int run() override {
    if (std::filesystem::path(output_).extension() != ".svg")
      return report_error(InvalidArgument(output_ + ": the flame graph is written as SVG (use a .svg name)"));
    if (Status s = check_output_path(output_, force_); !s.ok()) return report_error(s);
    // The module tree's costs are all a flame graph draws: the facade reads the stored summary facts.
    AnalysisNeeds needs;
    needs.iteration_marker = iteration_marker_;
    StatusOr<RunAnalysis> run = RunAnalysis::open(path_, needs);
    if (!run.ok()) return report_error(run.status());
    FlameRequest request;
    request.metric = metric_ == "flops"   ? graphs::CostMetric::kFlops
                     : metric_ == "bytes" ? graphs::CostMetric::kBytes
                                          : graphs::CostMetric::kTime;
    request.root = root_;
    StatusOr<graphs::Icicle> icicle = run->flame(request);
    if (!icicle.ok()) return report_error(icicle.status());
    std::string title = "Module flame graph: " + std::filesystem::path(path_).filename().string() +
                        (root_.empty() ? std::string() : " (" + root_ + ")");
    Status st =
        write_file_atomically(output_, graphs::icicle_svg(*icicle, run->summary(), title, width_), force_);
    if (!st.ok()) return report_error(st);
    // The widths are per iteration: how many iterations they are over is part of what was drawn.
    std::fprintf(stderr, "flopscope: wrote %s: %zu modules, widths by %s (%s)\n", output_.c_str(),
                 icicle->cells.size(), icicle->measure.c_str(),
                 count_of(run->summary().iterations, "iteration").c_str());
    return kExitOk;
  }

 private:
  std::string path_, output_, metric_ = "time", root_, iteration_marker_;
  int width_ = 1600;
  bool force_ = false;
};

}  // namespace

FLOPSCOPE_REGISTER_COMMAND(FlameCommand, "flame", "Module flame graph (icicle) of a run as SVG", 55);

}  // namespace flopscope::cli
