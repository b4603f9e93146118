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
#include "analyzer/clock.h"
#include "analyzer/fleet/ranks.h"
#include "analyzer/summary.h"
#include "db/model/run_data.h"
#include "graphs/graph_model.h"
#include "gui/models/diff_tree.h"
#include "gui/models/timeline_index.h"

namespace flopscope::gui {

// One opened run: the raw records (ops, kernels, params, graph) and its summary.
struct LoadedRun {
  QString path;
  QString graph_note;  // why the run has no computation graph, when it has none
  RunData data;
  RunSummary summary;
  CandidateReport candidates;  // elimination candidates (needs a run recorded with --activations)

  // The candidate entry of a module path, or null.
  const Candidate* candidate(const std::string& path) const;
  // Dead compute: the candidate whose multiplication by zero discards this module's work (the module is
  // one of its discarded_modules), and the one held by this module (its path), or null.
  const DiscardCandidate* discarded_by(const std::string& path) const;
  const DiscardCandidate* discard_held(const std::string& path) const;
};

// The ranks of one distributed run, each opened as a run, and the core's comparison of them.
struct RankSet {
  std::vector<std::shared_ptr<const LoadedRun>> runs;  // in RankReport::ranks order (by rank)
  RankReport report;
};

struct Session {
  std::shared_ptr<const LoadedRun> a;
  std::shared_ptr<const LoadedRun> b;  // null unless two runs were opened (diff mode)
  DiffTree diff;                       // the union module tree; statuses only in diff mode
  TimelineIndex timeline;              // of run a
  // Run a's op graph with costs, or in diff mode the union of both (graphs/ decides node identity, costs
  // and "changed", as for `flopscope graph --diff`); the Graph tab collapses and lays it out.
  graphs::OpGraph graph;
  std::shared_ptr<const RankSet> ranks;  // set when a distributed run was opened; a is runs[rank_index]
  int rank_index = 0;

  bool is_diff() const { return b != nullptr; }
  // The clock the views' times are on: the diff engine's in diff mode, else run a's (analyzer/clock.h).
  Clock clock() const;
  bool has_ranks() const { return ranks != nullptr; }
  QString title() const;
};

using SessionPtr = std::shared_ptr<const Session>;

// Builds the derived structures (module union tree, timeline index) of one or two loaded runs. A timeline
// index of run a built beforehand (e.g. on another thread while summarising) may be passed in.
// Two runs are compared with `options` (--map / --map-a / --map-b / --no-align, as `flopscope diff` takes
// them): the module diff and the diff graph pair modules as the engine does, the graph after the same renames
// and container alignment as `flopscope graph --diff`.
SessionPtr make_session(std::shared_ptr<const LoadedRun> a, std::shared_ptr<const LoadedRun> b,
                        std::optional<TimelineIndex> timeline = std::nullopt,
                        const DiffOptions& options = {});

// The first view of one run while its op and kernel rows are still being read: the module tree from the
// aggregates stored with it (run->summary.from_aggregates). No timeline, graph or candidates; the full
// session replaces it.
SessionPtr make_preview_session(std::shared_ptr<const LoadedRun> a);

// The session showing another rank of the same distributed run (index into RankSet::runs).
SessionPtr session_for_rank(std::shared_ptr<const RankSet> ranks, int index);

// Summarises a RunData into a LoadedRun (the analysis the worker thread runs after reading a file).
std::shared_ptr<const LoadedRun> make_loaded_run(QString path, RunData data);

}  // namespace flopscope::gui

Q_DECLARE_METATYPE(flopscope::gui::SessionPtr)
