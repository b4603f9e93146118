// `flopscope diff A B`: which modules and ops vanished, appeared or changed between two runs (run databases,
// traces, or TorchScript models profiled on the fly), joined with weights, with CI gates.
// Exit: 0 all gates passed, 1 a gate failed, 2 usage or input error.
#include <cstdio>
#include <future>
#include <map>
#include <optional>
#include <string_view>
#include <tuple>

#include "analyzer/analysis/diff_analysis.h"
#include "analyzer/diff/diff.h"
#include "analyzer/diff/gates.h"
#include "analyzer/diff/interleaved_rounds.h"
#include "analyzer/weights/weights.h"
#include "cli/background_sink.h"
#include "cli/command.h"
#include "cli/fleet_hooks.h"
#include "cli/iteration_marker_option.h"
#include "cli/multi_rank.h"
#include "cli/path_map_options.h"
#include "cli/printers/diff_report.h"
#include "cli/run_input.h"
#include "collector/torch/profile_model.h"
#include "db/model/atomic_file.h"
#include "db/model/text_escape.h"
#include "db/run_database.h"

namespace flopscope::cli {
namespace {

class DiffCommand final : public Command {
 public:
  void setup(CLI::App& app) override {
    app.add_option("runs", paths_,
                   "A B: baseline and candidate (run database, trace, or TorchScript model with --input); or "
                   "A.rank*.db B.rank*.db (two folders, or one file per rank) for a rank-matched diff")
        ->required();
    app.add_option("--baseline", baseline_url_,
                   "Baseline from a fleet store instead of A: postgresql://...[?branch=B&machine=M]; the one "
                   "positional argument is the candidate");
    app.add_option("--baseline-median", baseline_median_,
                   "With --baseline: the median run (end-to-end P50) of the newest N matching runs")
        ->check(CLI::PositiveNumber);
    path_maps_.add_to(app, "module paths");
    app.add_option("--atol", options_.atol, "Parameters with max |x| <= ATOL count as ZEROED (default 0)")
        ->check(CLI::NonNegativeNumber);
    app.add_option("--min-time-change", options_.min_time_change,
                   "Smallest relative time change called faster/slower (default 0.05; also at least 1 us)")
        ->check(CLI::NonNegativeNumber);
    app.add_option("--weights-a", weights_a_, "Weights file for A (replaces the run's parameter rows)");
    app.add_option("--weights-b", weights_b_, "Weights file for B (replaces the run's parameter rows)");
    app.add_option("--input", inputs_, "Input specs when A or B is a TorchScript model (as for `profile`)");
    app.add_option("--iterations,--iters", iterations_, "Iterations when profiling a model (default 10)");
    app.add_option("--threads", threads_,
                   "Intra-op threads when profiling a model (default: one per CPU core)")
        ->check(CLI::Range(0, 1024));
    add_iteration_marker_option(app, iteration_marker_);
    app.add_option("--rounds", rounds_,
                   "When A and B are both models: profile them in N alternating rounds (A B A B ...) of "
                   "--iterations/N iterations each, so machine drift hits both alike (default 1: A, then B)")
        ->check(CLI::Range(1, 1000));
    app.add_option("--format", format_, "Standard output: table (default), md, json, junit, html")
        ->check(CLI::IsMember({"table", "md", "json", "junit", "html"}));
    app.add_option("--md", md_path_, "Also write the Markdown report (PR comment) to FILE");
    app.add_option("--json", json_path_, "Also write the JSON report to FILE");
    app.add_option("--junit", junit_path_, "Also write JUnit XML (one test case per gate) to FILE");
    app.add_option("--html", html_path_, "Also write a self-contained HTML report to FILE");
    app.add_option("--html-graph", graph_path_,
                   "Diff graph SVG (flopscope graph --diff) to embed in the HTML");
    app.add_option("--expect-vanished", gates_.expect_vanished,
                   "Gate: every module of A matching GLOB runs no op in B; repeatable");
    app.add_option("--forbid-active", gates_.forbid_active,
                   "Gate: nothing matching GLOB is active in B (ops, or non-zero weights); repeatable");
    app.add_option("--max-regression", regression_,
                   "Gate: end-to-end limits, e.g. time=5%,flops=0.5%,bytes=1%");
    app.add_option("--max-output-change", max_output_change_,
                   "Gate: no output of forward() changes by more than X relative (max |B-A| / max |A|), "
                   "e.g. 1e-5; fails on NaN/Inf, exits 2 when the outputs cannot be compared");
    app.add_option("--min-top1-agreement", min_top1_,
                   "Gate: argmax of the outputs' last dimension agrees at least at P of the positions, "
                   "e.g. 99.9%");
    app.add_option(
        "--explain", explain_,
        "Print how module PATH (A's path, or B's) was paired with the other side: the evidence, its "
        "score, the runner-up reading and the tensors that moved, instead of the report");
    app.add_flag("--all", report_.all_modules, "List unchanged modules too");
    app.add_option("--top", report_.top_ops, "Changed op signatures listed (default 15)");
    app.add_flag("-f,--force", force_, "Overwrite report files");
  }

  int run() override {
    if (Status st = path_maps_.fill(options_); !st.ok()) return report_error(st);
    if (!regression_.empty()) {
      auto l = parse_regression_limits(regression_);
      if (!l.ok()) return report_error(l.status());
      gates_.max_regression = *l;
    }
    for (auto [text, option, slot] :
         {std::tuple{&max_output_change_, "--max-output-change", &gates_.max_output_change},
          std::tuple{&min_top1_, "--min-top1-agreement", &gates_.min_top1_agreement}}) {
      if (text->empty()) continue;
      auto v = parse_fraction(*text, option);
      if (!v.ok()) return report_error(v.status());
      *slot = *v;
    }
    if (Status st = check_distinct_paths({md_path_, json_path_, junit_path_, html_path_},
                                         {path_a_, path_b_, weights_a_, weights_b_, graph_path_});
        !st.ok()) {
      return report_error(st);
    }
    for (const auto* p : {&md_path_, &json_path_, &junit_path_, &html_path_}) {
      if (p->empty()) continue;
      if (Status st = check_output_path(*p, force_); !st.ok()) return report_error(st);
    }
    std::string svg;
    if (!graph_path_.empty()) {
      auto s = read_file(graph_path_);
      if (!s.ok()) return report_error(s.status());
      if (s->find("<svg") == std::string::npos)
        return report_error(InvalidArgument(graph_path_ + ": not an SVG file"));
      svg = std::move(s).value();
    }
    if (baseline_url_.empty() && names_two_rank_sets(paths_)) {
      if (!iteration_marker_.empty()) {
        return report_error(
            InvalidArgument(paths_[0] + ": --iteration-marker takes two traces, not several ranks"));
      }
      return run_rank_diff(paths_, options_, gates_, report_, format_);
    }
    if (paths_.size() > 2) return report_error(InvalidArgument("diff takes two runs, A and B"));
    path_a_ = paths_[0];
    path_b_ = paths_.size() > 1 ? paths_[1] : "";
    if (!baseline_url_.empty()) {
      if (!path_b_.empty())
        return report_error(InvalidArgument("--baseline takes one run (the candidate), not two"));
      path_b_ = path_a_;
      if (!fleet_baseline_loader()) {
        return report_error(Unsupported("--baseline: this build has no fleet store client (libpq)"));
      }
      auto base = fleet_baseline_loader()(BaselineRequest{baseline_url_, baseline_median_});
      if (!base.ok()) return report_error(base.status());
      path_a_ = base->label;
      baseline_ = std::move(base->run);
      std::fprintf(stderr, "flopscope: note: baseline A is %s\n", path_a_.c_str());
    } else if (path_b_.empty()) {
      return report_error(InvalidArgument("diff needs two runs (A B), or --baseline URL and one run"));
    }
    StatusOr<RunAnalysis> a = Internal("unset"), b = Internal("unset");
    if (rounds_ > 1) {
      if (baseline_ || !is_torchscript_model(path_a_) || !is_torchscript_model(path_b_)) {
        return report_error(
            InvalidArgument("--rounds interleaves profiling: A and B must both be TorchScript models (.pt), "
                            "not runs or traces"));
      }
      if (!iteration_marker_.empty()) return report_error(model_marker_error(path_a_));
      if (iterations_ < rounds_) {
        return report_error(InvalidArgument("--rounds " + std::to_string(rounds_) +
                                            " needs --iterations of at least " + std::to_string(rounds_) +
                                            " (one iteration per round)"));
      }
      StatusOr<RunData> ra = Internal("unset"), rb = Internal("unset");
      if (Status st = profile_interleaved(ra, rb); !st.ok()) return report_error(st);
      a = RunAnalysis::of(std::move(ra).value(), path_a_, totals_summary_options());
      b = RunAnalysis::of(std::move(rb).value(), path_b_, totals_summary_options());
    } else if (!baseline_ && looks_like_sqlite(path_a_) && looks_like_sqlite(path_b_)) {
      // Two run databases (or exports): read side by side, B by a second thread; A's error is reported first.
      auto read_b = std::async(std::launch::async, [this] { return load(path_b_, weights_b_); });
      a = load(path_a_, weights_a_);
      b = read_b.get();
      if (!a.ok()) return report_error(a.status());
      if (!b.ok()) return report_error(b.status());
    } else {
      a = load(path_a_, weights_a_);
      if (!a.ok()) return report_error(a.status());
      b = load(path_b_, weights_b_);
      if (!b.ok()) return report_error(b.status());
    }

    // The facade's diff: the engine's result and the gates on it (analyzer/analysis/diff_analysis).
    DiffAnalysis result = analyze_diff(*a, *b, options_, gates_);
    RunDiff& d = result.diff;
    const std::vector<GateResult>& gates = result.gates;
    if (const GateResult* e = result.first_error()) {
      return report_error(InvalidArgument(path_b_ + ": gate " + e->name + ": " + e->message));
    }
    if (!explain_.empty()) {
      auto text = explain_module(d, explain_);
      if (!text.ok()) return report_error(text.status());
      if (Status st = emit_output("", terminal_safe(*text, true), false); !st.ok()) return report_error(st);
      return result.outcome() == GateOutcome::kPassed ? kExitOk : kExitGateFailed;
    }
    report_.label_a = "A";
    report_.label_b = "B";

    // A and B are not read again: a second thread frees them while the reports are made.
    auto freed =
        std::async(std::launch::async, [ra = std::move(a).value(), rb = std::move(b).value()]() mutable {
          RunAnalysis gone_a = std::move(ra), gone_b = std::move(rb);
        });
    auto render = [&](const std::string& fmt) {
      if (fmt == "md") return render_diff_markdown(d, gates, report_);
      if (fmt == "json") return render_diff_json(d, gates, report_);
      if (fmt == "junit") return render_diff_junit(d, gates);
      if (fmt == "html") return render_diff_html(d, gates, report_, svg);
      return render_diff_table(d, gates, report_);
    };
    // The text shown on standard output is made by a second thread while the report files are written.
    auto shown_future = std::async(std::launch::async, [&] { return render(format_); });
    std::optional<std::string> shown;
    std::map<std::string, std::string> rendered;  // a format both written to a file and shown is made once
    auto text_for = [&](const std::string& fmt) -> const std::string& {
      if (fmt == format_) {
        if (!shown) shown = shown_future.get();
        return *shown;
      }
      auto [it, fresh] = rendered.try_emplace(fmt);
      if (fresh) it->second = render(fmt);
      return it->second;
    };
    // The JSON file (~100 MB for two 1M-kernel runs) is written by a second thread while it is produced.
    auto stream_json = [&](AtomicFile& file) -> Status {
      BackgroundSink sink([&file](std::string_view piece) { return file.write(piece); });
      Status made =
          write_diff_json(d, gates, report_, [&sink](std::string& piece) { return sink.push(piece); });
      Status written = sink.finish();
      return made.ok() ? written : made;
    };
    // Every report is written to its temporary file first; only when all are complete do they replace
    // their targets, so a failure in one never leaves another behind (or destroys a previous good one).
    std::vector<AtomicFile> files;
    for (const auto& [path, fmt] : {std::pair{&md_path_, "md"}, std::pair{&json_path_, "json"},
                                    std::pair{&junit_path_, "junit"}, std::pair{&html_path_, "html"}}) {
      if (path->empty()) continue;
      auto f = AtomicFile::create(*path, force_);
      if (!f.ok()) return report_error(f.status());
      files.push_back(std::move(f).value());
      const bool json = std::string_view(fmt) == "json" && format_ != "json";
      if (Status st = json ? stream_json(files.back()) : files.back().write(text_for(fmt)); !st.ok()) {
        return report_error(st);
      }
      if (Status st = files.back().close_unpublished(); !st.ok()) return report_error(st);
    }
    for (AtomicFile& f : files) {
      if (Status st = f.publish(); !st.ok()) return report_error(st);
    }
    if (Status st = emit_output("", text_for(format_), false); !st.ok()) return report_error(st);
    for (const auto& w : d.warnings)
      std::fprintf(stderr, "flopscope: warning: %s\n", terminal_safe(w, false).c_str());
    for (const auto& g : gates) {
      if (!g.passed) {
        std::fprintf(stderr, "flopscope: gate failed: %s: %s\n", terminal_safe(g.name, false).c_str(),
                     terminal_safe(g.message, false).c_str());
      }
    }
    return result.outcome() == GateOutcome::kPassed ? kExitOk : kExitGateFailed;
  }

 private:
  // A and B profiled in alternating rounds (A B A B ...), each side's rounds joined into one run.
  Status profile_interleaved(StatusOr<RunData>& a, StatusOr<RunData>& b) {
    for (int r = 0; r < rounds_; ++r) {
      const int iterations = iterations_ / rounds_ + (r < iterations_ % rounds_ ? 1 : 0);
      for (auto [path, side] : {std::pair{&path_a_, &a}, std::pair{&path_b_, &b}}) {
        StatusOr<RunData> round = profile(*path, iterations);
        if (!round.ok()) return round.status();
        if (r == 0) {
          *side = std::move(round);
        } else {
          append_round(**side, std::move(round).value());
        }
      }
    }
    FS_RETURN_IF_ERROR(join_weights(*a, weights_a_));
    return join_weights(*b, weights_b_);
  }

  // A model profiled here runs the passes --iterations asks for: there is no trace to find them in.
  static Status model_marker_error(const std::string& path) {
    return InvalidArgument(path +
                           ": --iteration-marker applies to traces; a TorchScript model profiled here "
                           "runs --iterations passes");
  }

  StatusOr<RunAnalysis> load(const std::string& path, const std::string& weights) {
    StatusOr<RunAnalysis> analysis = Internal("unset");
    if (baseline_ && path == path_a_) {
      analysis = RunAnalysis::of(std::move(*baseline_), path, totals_summary_options());
    } else if (is_torchscript_model(path)) {
      if (!iteration_marker_.empty()) return model_marker_error(path);
      StatusOr<RunData> run = profile(path, iterations_);
      if (!run.ok()) return run.status();
      analysis = RunAnalysis::of(std::move(run).value(), path, totals_summary_options());
    } else {
      AnalysisNeeds needs;
      needs.totals_only = true;  // a run database's aggregates: diff needs no op or kernel row
      needs.iteration_marker = iteration_marker_;
      analysis = RunAnalysis::open(path, needs);
    }
    if (!analysis.ok()) return analysis;
    if (!weights.empty()) FS_RETURN_IF_ERROR(join_weights(analysis->edit_run(), weights));
    return analysis;
  }

  StatusOr<RunData> profile(const std::string& path, int iterations) {
    FS_RETURN_IF_ERROR(check_model_profiling(path));
    if (inputs_.empty())
      return InvalidArgument(path + ": a TorchScript model needs --input specs to be profiled");
    ProfileModelOptions o;
    o.torch.model_path = path;
    o.torch.iterations = iterations;
    o.torch.warmup = 2;
    o.torch.threads = threads_;
    o.torch.tool_version = FLOPSCOPE_VERSION_STRING;
    FS_ASSIGN_OR_RETURN(o.torch.inputs, parse_input_specs(inputs_));
    // The graph is not drawn by diff from a model: skip extracting it.
    o.extract_graph = false;
    StatusOr<TorchProfile> p = profile_model(o);
    if (!p.ok()) return p.status();
    return std::move(p->run);
  }

  Status join_weights(RunData& run, const std::string& weights) {
    if (weights.empty()) return {};
    FS_ASSIGN_OR_RETURN(WeightsReport w, read_weights(weights, WeightsOptions{options_.atol, true, 0}));
    run.params = to_param_records(w);
    return {};
  }

  std::vector<std::string> paths_;
  std::string path_a_, path_b_, weights_a_, weights_b_, format_ = "table", regression_, baseline_url_,
                                                        explain_;
  std::string max_output_change_, min_top1_;
  int baseline_median_ = 0;
  std::optional<RunData> baseline_;
  std::string md_path_, json_path_, junit_path_, html_path_, graph_path_;
  std::string iteration_marker_;
  PathMapOptions path_maps_;
  std::vector<std::string> inputs_;
  int iterations_ = 10;
  int rounds_ = 1;
  int threads_ = 0;
  DiffOptions options_;
  GateOptions gates_;
  DiffReportOptions report_;
  bool force_ = false;
};

}  // namespace

FLOPSCOPE_REGISTER_COMMAND(
    DiffCommand, "diff",
    "Compare two runs or models: vanished/new/changed modules and ops, weights, CI gates", 50);

}  // namespace flopscope::cli
