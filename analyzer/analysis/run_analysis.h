// The analysis facade: one object per run, trace or model that a front end (a CLI command, the GUI, the
// exporter) opens once and asks for presentation-ready results. It owns what was read (RunContents says how
// much: a type, not flags), decides how much to read from what the caller will ask (AnalysisNeeds), and
// computes each result once. Front ends lay results out; they derive no number of their own.
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "analyzer/activations/candidates.h"
#include "analyzer/analysis/report_view.h"
#include "analyzer/analysis/timeline_index.h"
#include "analyzer/clock.h"
#include "analyzer/heatmap.h"
#include "analyzer/iteration_activity.h"
#include "analyzer/kernel_table.h"
#include "analyzer/memory_usage.h"
#include "analyzer/summary.h"
#include "analyzer/totals_summary.h"
#include "db/model/run_data.h"
#include "db/model/status.h"
#include "graphs/icicle.h"
#include "graphs/roofline_plot.h"

namespace flopscope {

// How much of a run the analysis holds.
enum class RunContents {
  kSummaryFacts,  // the summary facts stored with a run database (schema 010): the module tree and totals
  kTotals,        // per-module and per-op-signature aggregates (schema 007): enough for a diff
  kRows,          // every op and kernel row: everything (kernel table, candidates, flame, graph, timeline)
};
const char* to_string(RunContents c);

// What a front end will ask for; open() reads the least that serves all of it.
struct AnalysisNeeds {
  bool rows = false;          // kernels(), candidates(), op groups, flame, roofline, timeline, graph, export
  bool totals_only = false;   // per-module and per-op-signature totals and times only (a diff, a heatmap)
  std::string graph_capture;  // a Kineto trace's CUDA-graph capture (--graph-capture); implies rows
  std::string iteration_marker;  // --iteration-marker for a trace read directly (an error for a database)
  SummaryOptions summary;        // top ops, peak override
};

// What a flame graph (module icicle) shows: widths by a metric, from a root module drawn full width.
struct FlameRequest {
  graphs::CostMetric metric = graphs::CostMetric::kTime;
  std::string root;  // a module path; "" for the whole model
};

class RunAnalysis {
 public:
  // A run database, a trace file (Kineto JSON[.gz], Nsight Systems SQLite, Nsight Compute CSV).
  static StatusOr<RunAnalysis> open(const std::string& path, const AnalysisNeeds& needs = {});
  // A run already in memory (a model just profiled, a rank read by the rank analysis): it has every row.
  static RunAnalysis of(RunData run, std::string label, const SummaryOptions& summary = {});

  const std::string& label() const { return state_->label; }  // the path the user named
  RunContents contents() const { return state_->contents; }
  const RunData& run() const { return state_->run; }
  // The run, for a caller that replaces parts of it before analysing (diff's --weights-a); clears the
  // results computed so far.
  RunData& edit_run();

  const RunSummary& summary() const;
  Clock clock() const { return run_clock(summary()); }
  // The decisions the report printers share: top-op shares and their denominator, FLOPs coverage wording.
  ReportView report_view(std::size_t top_ops) const { return make_report_view(summary(), top_ops); }
  // One row per kernel name (needs rows: an error naming the file otherwise).
  StatusOr<std::vector<KernelRow>> kernels() const;
  // Elimination candidates (needs rows and a run recorded with --activations).
  StatusOr<CandidateReport> candidates(const CandidateOptions& options = {}) const;
  // The candidates with the default options, kept (an empty report when the run has no rows: a preview).
  const CandidateReport& default_candidates() const;

  // The module icicle (needs only the module tree): widths per iteration in the request's metric, with
  // its measure and caveats. An error naming the file when the root is not a module of the run, or when
  // nothing has a width (no time, FLOPs or bytes recorded).
  StatusOr<graphs::Icicle> flame(const FlameRequest& request = {}) const;
  // The roofline (needs only the module tree): each module's own work by arithmetic intensity and achieved
  // FLOP/s, under the run's peak (the peak table's entry for its device, or SummaryOptions::peak), with
  // which bytes and which clock; the bound is analyzer/peaks' one rule. No points when no module has
  // FLOPs, bytes and time of its own.
  const graphs::RooflinePlot& roofline() const;
  // The run's timeline (needs rows): a module lane, host ops by thread and depth up to depth 2, kernels by
  // device and stream (orphans marked), the first iteration's span.
  StatusOr<const TimelineIndex*> timeline() const;
  // The latency heatmap (needs only the module tree): the top_n modules by self time, per iteration, on
  // the run's clock.
  const HeatmapData& heatmap(std::size_t top_n) const;
  // Per iteration: device span, busy and idle time, launch delay, host- or device-bound
  // (analyzer/iteration_activity). Reads a run database's kernel rows when only its summary was read; empty
  // for a run without kernels.
  StatusOr<const IterationActivityReport*> iteration_activity() const;
  // Memory per op and per module from the run's allocator events (analyzer/memory_usage.h): empty when the
  // run has none. Reads a run database's op rows when only its summary was read.
  StatusOr<const MemoryUsage*> memory() const;
  // How the iterations of an imported trace were found (RunInfo::iterations_from), "" when the capture ran
  // them itself.
  const std::string& iterations_from() const { return state_->run.info.iterations_from; }

 private:
  struct State {
    std::string label;
    RunContents contents = RunContents::kRows;
    RunData run;
    SummaryOptions summary_options;
    // Results computed once. Different results may be asked for on different threads at once (the GUI
    // builds the timeline beside the summary); one result from two threads at once may not.
    mutable std::optional<RunSummary> summary;
    mutable std::optional<CandidateReport> candidates;
    mutable std::optional<graphs::RooflinePlot> roofline;
    mutable std::optional<TimelineIndex> timeline;
    mutable std::map<std::pair<graphs::CostMetric, std::string>, graphs::Icicle> flames;
    mutable std::map<std::size_t, HeatmapData> heatmaps;  // by top_n
    mutable std::optional<IterationActivityReport> activity;
    mutable std::optional<MemoryUsage> memory;
  };
  explicit RunAnalysis(std::shared_ptr<State> s) : state_(std::move(s)) {}
  Status need_rows(const char* what) const;
  std::shared_ptr<State> state_;  // shared: copies of the facade see the same results
};

}  // namespace flopscope
