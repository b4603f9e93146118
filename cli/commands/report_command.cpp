// flopscope report RUN: the module tree with costs and latency, top ops, FLOPs coverage, data quality.
#include <nlohmann/json.hpp>

#include "analyzer/activations/candidates.h"
#include "analyzer/summary.h"
#include "cli/command.h"
#include "cli/printers/candidates.h"
#include "cli/printers/report.h"
#include "cli/run_input.h"
#include "db/model/atomic_file.h"

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
    app.add_flag(
        "--candidates", candidates_,
        "List elimination candidates: modules that behave as zero or identity (needs profile --activations)");
    app.add_option("--zero-threshold", candidate_options_.zero_threshold,
                   "A call behaves as zero when its output RMS is below this (default 1e-5)");
    app.add_option("--identity-threshold", candidate_options_.identity_threshold,
                   "A call behaves as identity when ||y-x||/||x|| is below this (default 1e-3)");
    app.add_option("--min-share", candidate_options_.min_share_of_calls,
                   "List a module when the behaviour held in at least this share of its calls (default 0.9)")
        ->check(CLI::Range(0.0, 1.0));
    app.add_option("-o,--output", output_, "Write the report to a file instead of stdout");
    app.add_flag("--force", force_, "Overwrite the output file");
  }

  int run() override {
    if (sort_ == "flops") options_.sort = SortKey::kFlops;
    if (sort_ == "time") options_.sort = SortKey::kTime;
    if (sort_ == "bytes") options_.sort = SortKey::kBytes;
    if (!output_.empty() && output_ != "-") {
      if (Status st = check_distinct_paths({output_}, {path_}); !st.ok()) return report_error(st);
      if (Status st = check_output_path(output_, force_); !st.ok()) return report_error(st);
    }
    StatusOr<RunData> run = open_run(path_);
    if (!run.ok()) return report_error(run.status());
    SummaryOptions so;
    so.top_ops = options_.top_ops;
    RunSummary s = summarize(*run, so);
    std::string text;
    CandidateReport candidates;
    if (candidates_) candidates = find_candidates(*run, s, candidate_options_);
    if (format_ == "json") {
      text = render_report_json(*run, s, options_);
      if (candidates_) {
        auto j = nlohmann::ordered_json::parse(text);
        j["candidates"] = candidates_json(candidates);
        text = j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
      }
    } else if (format_ == "md") {
      text = render_report_markdown(*run, s, options_);
      if (candidates_) text += render_candidates_markdown(candidates);
    } else if (format_ == "csv") {
      text = render_report_csv(*run, s, options_);
    } else {
      text = render_report_table(*run, s, options_);
      if (candidates_) text += render_candidates_table(candidates);
    }
    Status st = emit_output(output_, text, force_);
    return st.ok() ? kExitOk : report_error(st);
  }

 private:
  std::string path_, sort_ = "model", format_ = "table", output_;
  ReportOptions options_;
  CandidateOptions candidate_options_;
  bool candidates_ = false;
  bool force_ = false;
};

}  // namespace

FLOPSCOPE_REGISTER_COMMAND(ReportCommand, "report", "Per-module FLOPs, bytes and latency of a run", 20);

}  // namespace flopscope::cli
