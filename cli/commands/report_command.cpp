// flopscope report RUN: the module tree with costs and latency, top ops, FLOPs coverage, data quality.
#include "analyzer/summary.h"
#include "cli/command.h"
#include "cli/printers/report.h"
#include "cli/run_input.h"

namespace flopscope::cli {
namespace {

class ReportCommand final : public Command {
 public:
  void setup(CLI::App& app) override {
    app.add_option("run", path_, "Run database (or trace file) to report on")->required();
    app.add_option("--depth", options_.depth, "Deepest module level shown (root is 0; default: all)");
    app.add_option("--sort", sort_, "Order siblings by: model (default), flops, time, bytes")
        ->check(CLI::IsMember({"model", "flops", "time", "bytes"}));
    app.add_option("--format", format_, "table (default), md, json, csv")
        ->check(CLI::IsMember({"table", "md", "json", "csv"}));
    app.add_option("--top", options_.top_ops, "Number of top ops listed (default 15)");
    app.add_flag("--coverage", options_.full_coverage, "List every op without a FLOPs formula");
    app.add_option("-o,--output", output_, "Write the report to a file instead of stdout");
    app.add_flag("--force", force_, "Overwrite the output file");
  }

  int run() override {
    if (sort_ == "flops") options_.sort = SortKey::kFlops;
    if (sort_ == "time") options_.sort = SortKey::kTime;
    if (sort_ == "bytes") options_.sort = SortKey::kBytes;
    StatusOr<RunData> run = open_run(path_);
    if (!run.ok()) return report_error(run.status());
    SummaryOptions so;
    so.top_ops = options_.top_ops;
    RunSummary s = summarize(*run, so);
    std::string text;
    if (format_ == "json") text = render_report_json(*run, s, options_);
    else if (format_ == "md") text = render_report_markdown(*run, s, options_);
    else if (format_ == "csv") text = render_report_csv(*run, s, options_);
    else text = render_report_table(*run, s, options_);
    Status st = emit_output(output_, text, force_);
    return st.ok() ? kExitOk : report_error(st);
  }

 private:
  std::string path_, sort_ = "model", format_ = "table", output_;
  ReportOptions options_;
  bool force_ = false;
};

}  // namespace

FLOPSCOPE_REGISTER_COMMAND(ReportCommand, "report", "Per-module FLOPs, bytes and latency of a run", 20);

}  // namespace flopscope::cli
