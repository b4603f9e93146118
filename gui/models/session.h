// What the GUI shows: one run, or two runs and their module diff, or one rank of a distributed run (the
// other views show that rank; the Ranks tab shows them all). Built once on a worker thread by
// RunLoader and then shared read-only (std::shared_ptr<const Session>) by every model and view.
#pragma once

#include <QMetaType>
#include <QString>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "analyzer/activations/candidates.h"
#include "analyzer/analysis/run_analysis.h"
#include "analyzer/clock.h"
#include "analyzer/fleet/ranks_analysis.h"
#include "analyzer/summary.h"
#include "db/model/run_data.h"
#include "graphs/graph_model.h"
#include "gui/models/diff_tree.h"
#include "gui/models/timeline_index.h"

namespace flopscope::gui {

// One opened run: its analysis (the facade the CLI presents too), which every view asks for its results.
struct LoadedRun {
  // Computes the summary and the candidates (on the loader's worker thread, not the GUI's).
  LoadedRun(QString path, RunAnalysis analysis, QString graph_note = {});

  QString path;
  QString graph_note;  // why the run has no computation graph, when it has none
  RunAnalysis analysis;
  // The analysis's records (ops, kernels, params, graph), summary and elimination candidates (needs a run
  // recorded with --activations; none in a preview), as the views name them.
  const RunData& data;
  const RunSummary& summary;
  const CandidateReport& candidates;

  // The candidate entry of a module path, or null.
  const Candidate* candidate(const std::string& path) const;
  // Dead compute: the candidate whose multiplication by zero discards this module's work (the module is
  // one of its discarded_modules), and the one held by this module (its path), or null.
  const DiscardCandidate* discarded_by(const std::string& path) const;
  const DiscardCandidate* discard_held(const std::string& path) const;
};

// The ranks of one distributed run, each opened as a run, and the core's comparison of them (the rank
// facade, as `flopscope report run.rank*.db` prints it).
struct RankSet {
  std::vector<std::shared_ptr<const LoadedRun>> runs;  // in RankReport::ranks order (by rank)
  RankReport report;
};

struct Session {
  std::shared_ptr<const LoadedRun> a;
  std::shared_ptr<const LoadedRun> b;  // null unless two runs were opened (diff mode)
  DiffTree diff;                       // the union module tree; statuses only in diff mode
  // Run a's op graph with costs, or in diff mode the union of both (graphs/ decides node identity, costs
  // and "changed", as for `flopscope graph --diff`); the Graph tab collapses and lays it out.
  graphs::OpGraph graph;
  std::shared_ptr<const RankSet> ranks;  // set when a distributed run was opened; a is runs[rank_index]
  int rank_index = 0;

  bool is_diff() const { return b != nullptr; }
  // The clock the views' times are on: the diff engine's in diff mode, else run a's (analyzer/clock.h).
  Clock clock() const;
  bool has_ranks() const { return ranks != nullptr; }
  // Run a's timeline (its analysis's); empty in a preview, which has no rows.
  const TimelineIndex& timeline() const;
  QString title() const;
};

using SessionPtr = std::shared_ptr<const Session>;

// Builds the derived structures (module union tree, op graph) of one or two loaded runs.
// Two runs are compared with `options` (--map / --map-a / --map-b / --no-align, as `flopscope diff` takes
// them): the module diff and the diff graph pair modules as the engine does, the graph after the same renames
// and container alignment as `flopscope graph --diff`.
SessionPtr make_session(std::shared_ptr<const LoadedRun> a, std::shared_ptr<const LoadedRun> b,
                        const DiffOptions& options = {});

// The first view of one run while its op and kernel rows are still being read: the module tree from the
// aggregates stored with it (run->summary.from_aggregates). No timeline, graph or candidates; the full
// session replaces it.
SessionPtr make_preview_session(std::shared_ptr<const LoadedRun> a);

// The session showing another rank of the same distributed run (index into RankSet::runs).
SessionPtr session_for_rank(std::shared_ptr<const RankSet> ranks, int index);

// A run in memory as a LoadedRun (RunAnalysis::of, summarised).
std::shared_ptr<const LoadedRun> make_loaded_run(QString path, RunData data);

}  // namespace flopscope::gui

Q_DECLARE_METATYPE(flopscope::gui::SessionPtr)
