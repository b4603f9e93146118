// flopscope report RUN: the module tree with costs and latency, top ops, FLOPs coverage, data quality.
#include <optional>

#include "analyzer/activations/candidates.h"
#include "analyzer/analysis/run_analysis.h"
#include "analyzer/fleet/ranks_analysis.h"
#include "analyzer/peaks.h"
#include "analyzer/summary.h"
#include "cli/candidate_verify.h"
#include "cli/command.h"
#include "cli/iteration_marker_option.h"
#include "cli/multi_rank.h"
#include "cli/printers/candidates.h"
#include "cli/printers/rank_report.h"
#include "cli/printers/report.h"
#include "cli/run_input.h"
#include "db/model/atomic_file.h"
#include "db/model/input_file.h"

namespace flopscope::cli {
namespace {

class ReportCommand final : public Command {
 public:
  void setup(CLI::App& app) override {
    app.add_option(
           "run", paths_,
           "Run database (or trace file) to report on; several ranks of one run (run.rank*.db, one trace "
           "per rank) or a folder of them for a per-rank report")
        ->required();
    app.add_option("--depth", options_.depth, "Deepest module level shown (root is 0; default: all)");
    app.add_option("--sort", sort_, "Order siblings by: model (default), flops, time, bytes")
        ->check(CLI::IsMember({"model", "flops", "time", "bytes"}));
    app.add_option("--format", format_, "table (default), md, json, csv")
        ->check(CLI::IsMember({"table", "md", "json", "csv"}));
    app.add_option("--top", options_.top_ops, "Number of top ops listed (default 15)");
    app.add_flag("--coverage", options_.full_coverage, "List every op without a FLOPs formula");
    app.add_flag(
        "--kernels", kernels_,
        "Add a per-kernel-name table: count, device time, grid/block, analytic and measured work, module "
        "(csv: that table instead of the module table)");
    app.add_option(
        "--peak", peak_,
        "Device peak for the roofline as FLOPS:BYTES_PER_S, e.g. 989e12:3.35e12 (default: the peak "
        "table's row for the trace's device)");
    app.add_flag(
        "--candidates", candidates_,
        "List elimination candidates: modules that behave as zero or identity, and work computed then "
        "multiplied by zero (needs profile --activations)");
    app.add_flag(
        "--verify", verify_,
        "With --candidates: ablate each candidate in the run's model on the run's inputs and mark it "
        "verified (outputs change <= --verify-tolerance) or refuted");
    app.add_option("--verify-tolerance", verify_tolerance_,
                   "Largest relative output change (max |Δ| / max |output|) a verified candidate may cause "
                   "(default 1e-5)");
    app.add_option("--zero-threshold", candidate_options_.zero_threshold,
                   "A call behaves as zero when its output RMS is below this (default 1e-5)");
    app.add_option("--identity-threshold", candidate_options_.identity_threshold,
                   "A call behaves as identity when ||y-x||/||x|| is below this (default 1e-3)");
    app.add_option("--min-share", candidate_options_.min_share_of_calls,
                   "List a module when the behaviour held in at least this share of its calls (default 0.9)")
        ->check(CLI::Range(0.0, 1.0));
    app.add_option(
        "--graph-capture", graph_capture_,
        "PyTorch profiler trace recorded while the run's CUDA graph was captured: kernels replayed from "
        "the graph are attributed to the ops and modules of the capture");
    add_iteration_marker_option(app, iteration_marker_);
    app.add_option("-o,--output", output_, "Write the report to a file instead of stdout");
    app.add_flag("-f,--force", force_, "Overwrite the output file");
  }

  int run() override {
    if (sort_ == "flops") options_.sort = SortKey::kFlops;
    if (sort_ == "time") options_.sort = SortKey::kTime;
    if (sort_ == "bytes") options_.sort = SortKey::kBytes;
    if (names_several_ranks(paths_)) {
      if (!graph_capture_.empty()) {
        return report_error(
            InvalidArgument(graph_capture_ + ": --graph-capture takes one run, not several ranks"));
      }
      if (!iteration_marker_.empty()) {
        return report_error(
            InvalidArgument(paths_[0] + ": --iteration-marker takes one trace, not several ranks"));
      }
      return run_ranks();
    }
    if (!output_.empty() && output_ != "-") {
      if (Status st = check_distinct_paths({output_}, paths_); !st.ok()) return report_error(st);
      if (Status st = check_output_path(output_, force_); !st.ok()) return report_error(st);
    }
    SummaryOptions so;
    if (!peak_.empty()) {
      auto peak = parse_peak(peak_);
      if (!peak.ok()) return report_error(peak.status());
      so.peak = *peak;
    }
    if (!graph_capture_.empty()) {
      if (Status st = check_input_file(graph_capture_); !st.ok()) return report_error(st);
    }
    // The facade reads what the asked-for views need: the summary alone takes the stored summary facts; the
    // kernel table, candidates and the JSON report's op groups take the rows.
    so.top_ops = options_.top_ops;
    AnalysisNeeds needs;
    needs.rows = kernels_ || candidates_ || format_ == "json";
    needs.graph_capture = graph_capture_;
    needs.iteration_marker = iteration_marker_;
    needs.summary = so;
    StatusOr<RunAnalysis> analysis = RunAnalysis::open(paths_[0], needs);
    if (!analysis.ok()) return report_error(analysis.status());
    options_.kernels = kernels_;
    const RunData& run = analysis->run();
    const RunSummary& s = analysis->summary();
    auto activity = analysis->iteration_activity();
    if (!activity.ok()) return report_error(activity.status());
    options_.activity = *activity;
    auto memory = analysis->memory();
    if (!memory.ok()) return report_error(memory.status());
    options_.memory = *memory;
    std::string text;
    std::optional<CandidateReport> candidates;
    if (candidates_) {
      auto found = analysis->candidates(candidate_options_);
      if (!found.ok()) return report_error(found.status());
      candidates = std::move(found).value();
    }
    // --verify: each candidate ablated in the run's model on the run's inputs (cli/candidate_verify).
    StatusOr<CandidateVerifications> verified = CandidateVerifications{};
    if (candidates && verify_) verified = verify_candidates(run, *candidates, verify_tolerance_);
    if (!verified.ok()) return report_error(verified.status());
    const CandidateVerifications* checks = candidates && verify_ ? &*verified : nullptr;
    if (format_ == "json") {
      if (Status st = check_report_json_size(paths_[0], s); !st.ok()) return report_error(st);
      text = render_report_json(run, s, options_, candidates ? &*candidates : nullptr, checks);
    } else if (format_ == "md") {
      text = render_report_markdown(run, s, options_);
      if (kernels_) text += "\n```\n" + render_kernels_table(run, 50) + "```\n";
      if (candidates) text += render_candidates_markdown(*candidates, checks);
    } else if (format_ == "csv") {
      text = kernels_ ? render_kernels_csv(run) : render_report_csv(run, s, options_);
    } else {
      text = render_report_table(run, s, options_);
      if (kernels_) text += render_kernels_table(run, 50);
      if (candidates) text += render_candidates_table(*candidates, checks);
    }
    Status st = emit_output(output_, text, force_);
    return st.ok() ? kExitOk : report_error(st);
  }

 private:
  int run_ranks() {
    if (format_ != "table" && format_ != "json") {
      return report_error(InvalidArgument("a per-rank report is written as table or json, not " + format_));
    }
    auto ranks = RankAnalysis::open(paths_);
    if (!ranks.ok()) return report_error(ranks.status());
    const RankReport& report = ranks->report();
    std::string text = format_ == "json" ? render_rank_report_json(report)
                                         : render_rank_report_table(report, options_.depth);
    Status st = emit_output(output_, text, force_);
    return st.ok() ? kExitOk : report_error(st);
  }

  std::vector<std::string> paths_;
  std::string sort_ = "model", format_ = "table", output_, peak_, graph_capture_, iteration_marker_;
  ReportOptions options_;
  CandidateOptions candidate_options_;
  bool candidates_ = false;
  bool verify_ = false;
  double verify_tolerance_ = 1e-5;
  bool force_ = false;
  bool kernels_ = false;
};

}  // namespace

FLOPSCOPE_REGISTER_COMMAND(ReportCommand, "report", "Per-module FLOPs, bytes and latency of a run", 20);

}  // namespace flopscope::cli
