// The analysis facade: one object per run, trace or model that a front end (a CLI command, the GUI, the
// exporter) opens once and asks for presentation-ready results. It owns what was read (RunContents says how
// much: a type, not flags), decides how much to read from what the caller will ask (AnalysisNeeds), and
// computes each result once. Front ends lay results out; they derive no number of their own.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "analyzer/activations/candidates.h"
#include "analyzer/analysis/report_view.h"
#include "analyzer/clock.h"
#include "analyzer/kernel_table.h"
#include "analyzer/summary.h"
#include "analyzer/totals_summary.h"
#include "db/model/run_data.h"
#include "db/model/status.h"

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
  SummaryOptions summary;     // top ops, peak override
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

 private:
  struct State {
    std::string label;
    RunContents contents = RunContents::kRows;
    RunData run;
    SummaryOptions summary_options;
    mutable std::optional<RunSummary> summary;
  };
  explicit RunAnalysis(std::shared_ptr<State> s) : state_(std::move(s)) {}
  Status need_rows(const char* what) const;
  std::shared_ptr<State> state_;  // shared: copies of the facade see the same results
};

}  // namespace flopscope
