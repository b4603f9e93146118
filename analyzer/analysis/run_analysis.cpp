#include "analyzer/analysis/run_analysis.h"

#include <utility>

#include "analyzer/analysis/load_run.h"
#include "db/run_database.h"

namespace flopscope {

const char* to_string(RunContents c) {
  switch (c) {
    case RunContents::kSummaryFacts:
      return "summary facts";
    case RunContents::kTotals:
      return "totals";
    case RunContents::kRows:
      return "rows";
  }
  return "";
}

StatusOr<RunAnalysis> RunAnalysis::open(const std::string& path, const AnalysisNeeds& needs) {
  auto s = std::make_shared<State>();
  s->label = path;
  s->summary_options = needs.totals_only ? totals_summary_options(needs.summary) : needs.summary;
  const bool rows = needs.rows || !needs.graph_capture.empty();
  const TraceOptions trace{needs.graph_capture, needs.iteration_marker};
  if (rows) {
    FS_ASSIGN_OR_RETURN(s->run, load_run(path, trace));
  } else if (needs.totals_only) {
    FS_ASSIGN_OR_RETURN(s->run, load_run_totals(path, trace));
  } else {
    FS_ASSIGN_OR_RETURN(s->run, load_run_summary(path, trace));
  }
  if (s->run.raw_rows) {
    s->contents = RunContents::kRows;
  } else {
    s->contents = s->run.summary_facts.present && !needs.totals_only ? RunContents::kSummaryFacts
                                                                     : RunContents::kTotals;
  }
  return RunAnalysis(std::move(s));
}

RunAnalysis RunAnalysis::of(RunData run, std::string label, const SummaryOptions& summary) {
  auto s = std::make_shared<State>();
  s->label = std::move(label);
  s->summary_options = summary;
  s->contents = run.raw_rows ? RunContents::kRows : RunContents::kTotals;
  s->run = std::move(run);
  return RunAnalysis(std::move(s));
}

RunData& RunAnalysis::edit_run() {
  State& s = *state_;
  s.summary.reset();
  s.candidates.reset();
  s.roofline.reset();
  s.timeline.reset();
  s.flames.clear();
  s.heatmaps.clear();
  s.activity.reset();
  return s.run;
}

const RunSummary& RunAnalysis::summary() const {
  if (!state_->summary) state_->summary = summarize(state_->run, state_->summary_options);
  return *state_->summary;
}

Status RunAnalysis::need_rows(const char* what) const {
  if (state_->contents == RunContents::kRows) return {};
  return Internal(state_->label + ": " + what + " needs the run's op and kernel rows, and only its " +
                  to_string(state_->contents) + " were read");
}

StatusOr<std::vector<KernelRow>> RunAnalysis::kernels() const {
  FS_RETURN_IF_ERROR(need_rows("the kernel table"));
  return kernel_table(state_->run);
}

StatusOr<CandidateReport> RunAnalysis::candidates(const CandidateOptions& options) const {
  FS_RETURN_IF_ERROR(need_rows("the candidate list"));
  return find_candidates(state_->run, summary(), options);
}

const CandidateReport& RunAnalysis::default_candidates() const {
  if (!state_->candidates) {
    StatusOr<CandidateReport> found = candidates();
    state_->candidates = found.ok() ? std::move(*found) : CandidateReport{};
  }
  return *state_->candidates;
}

StatusOr<graphs::Icicle> RunAnalysis::flame(const FlameRequest& request) const {
  auto key = std::make_pair(request.metric, request.root);
  if (auto it = state_->flames.find(key); it != state_->flames.end()) return it->second;
  const RunSummary& s = summary();
  graphs::IcicleOptions options;
  options.metric = request.metric;
  if (!request.root.empty()) {
    options.root = s.find(request.root);
    if (options.root < 0) return NotFound(label() + ": no module '" + request.root + "' in this run");
  }
  graphs::Icicle icicle = graphs::icicle_layout(s, options);
  if (icicle.cells.empty())
    return InvalidArgument(label() + ": nothing to draw: the run has no " + icicle.measure);
  return state_->flames.emplace(std::move(key), std::move(icicle)).first->second;
}

const graphs::RooflinePlot& RunAnalysis::roofline() const {
  if (!state_->roofline) state_->roofline = graphs::roofline_plot(summary(), summary().peak);
  return *state_->roofline;
}

const HeatmapData& RunAnalysis::heatmap(std::size_t top_n) const {
  auto it = state_->heatmaps.find(top_n);
  if (it == state_->heatmaps.end())
    it = state_->heatmaps.emplace(top_n, heatmap_data(summary(), top_n)).first;
  return it->second;
}

StatusOr<const IterationActivityReport*> RunAnalysis::iteration_activity() const {
  State& s = *state_;
  if (s.activity) return &*s.activity;
  if (s.contents == RunContents::kRows || !summary().has_kernels) {
    s.activity = flopscope::iteration_activity(s.run.kernels);
  } else {
    // The summary facts hold no kernel intervals: the kernel rows alone are read (not the ops).
    FS_ASSIGN_OR_RETURN(std::vector<KernelRecord> kernels, read_run_kernels(s.label));
    s.activity = flopscope::iteration_activity(kernels);
  }
  return &*s.activity;
}

StatusOr<const MemoryUsage*> RunAnalysis::memory() const {
  State& s = *state_;
  if (s.memory) return &*s.memory;
  if (s.contents == RunContents::kRows || s.run.memory_events.empty()) {
    s.memory = memory_usage(s.run, summary());
  } else {
    // The events belong to ops by time: the op rows are read (the summary stays the one already made).
    RunReadOptions rows;
    rows.raw_rows = true;
    FS_ASSIGN_OR_RETURN(RunData whole, read_run_database(s.label, rows));
    s.memory = memory_usage(whole, summary());
  }
  return &*s.memory;
}

StatusOr<const TimelineIndex*> RunAnalysis::timeline() const {
  FS_RETURN_IF_ERROR(need_rows("the timeline"));
  if (!state_->timeline) state_->timeline = TimelineIndex::build(state_->run);
  return &*state_->timeline;
}

}  // namespace flopscope
