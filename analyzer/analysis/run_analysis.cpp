#include "analyzer/analysis/run_analysis.h"

#include <utility>

#include "analyzer/analysis/load_run.h"

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
  if (rows) {
    FS_ASSIGN_OR_RETURN(s->run, load_run(path, needs.graph_capture));
  } else if (needs.totals_only) {
    FS_ASSIGN_OR_RETURN(s->run, load_run_totals(path));
  } else {
    FS_ASSIGN_OR_RETURN(s->run, load_run_summary(path));
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
  state_->summary.reset();
  return state_->run;
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

}  // namespace flopscope
