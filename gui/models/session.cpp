#include "gui/models/session.h"

#include <QFileInfo>

#include "graphs/open_graph.h"
#include "graphs/paired_diff_graph.h"

namespace flopscope::gui {

QString Session::title() const {
  QString t = QFileInfo(a->path).fileName();
  if (b) t += QStringLiteral(" \u2192 ") + QFileInfo(b->path).fileName();
  if (ranks) {
    t += QStringLiteral(" (rank %1 of %2 ranks)")
             .arg(ranks->report.ranks[static_cast<std::size_t>(rank_index)].rank)
             .arg(ranks->report.ranks.size());
  }
  return t;
}

const TimelineIndex& Session::timeline() const {
  static const TimelineIndex kNone;
  if (!a) return kNone;
  StatusOr<const TimelineIndex*> t = a->analysis.timeline();
  return t.ok() ? **t : kNone;
}

LoadedRun::LoadedRun(QString p, RunAnalysis a, QString note)
    : path(std::move(p)),
      graph_note(std::move(note)),
      analysis(std::move(a)),
      data(analysis.run()),
      summary(analysis.summary()),
      candidates(analysis.default_candidates()) {}

Clock Session::clock() const {
  if (diff.engine) return time_clock(*diff.engine);
  return a ? run_clock(a->summary) : Clock::kHost;
}

const Candidate* LoadedRun::candidate(const std::string& module_path) const {
  for (const auto& c : candidates.candidates) {
    if (c.path == module_path) return &c;
  }
  return nullptr;
}

const DiscardCandidate* LoadedRun::discarded_by(const std::string& module_path) const {
  for (const auto& c : candidates.discarded) {
    for (const auto& m : c.discarded_modules)
      if (m == module_path) return &c;
  }
  return nullptr;
}

const DiscardCandidate* LoadedRun::discard_held(const std::string& module_path) const {
  for (const auto& c : candidates.discarded) {
    if (c.path == module_path) return &c;
  }
  return nullptr;
}

std::shared_ptr<const LoadedRun> make_loaded_run(QString path, RunData data) {
  std::string label = path.toStdString();
  return std::make_shared<LoadedRun>(std::move(path), RunAnalysis::of(std::move(data), std::move(label)));
}

namespace {

graphs::OpGraph op_graph(const LoadedRun& run) {
  return graphs::run_op_graph(run.data, run.summary, QFileInfo(run.path).fileName().toStdString());
}

std::shared_ptr<Session> build_session(std::shared_ptr<const LoadedRun> a, std::shared_ptr<const LoadedRun> b,
                                       const DiffOptions& options) {
  auto s = std::make_shared<Session>();
  s->diff =
      b ? diff_tree(a->summary, a->data, b->summary, b->data, options) : single_run_tree(a->summary, a->data);
  (void)a->analysis.timeline();         // built here, on the loader's thread, when not yet (a rank's run)
  if (b) (void)b->analysis.timeline();  // the Timeline tab's switch shows run B too
  s->graph = op_graph(*a);
  if (b) {
    // The diff graph `flopscope graph --diff` draws: one pairing (maps, alignment) and the engine's
    // DORMANT verdicts, both from the core.
    graphs::PairedDiffGraph paired = graphs::paired_diff_graph(
        std::move(s->graph), op_graph(*b), {a->data, &a->summary, b->data, &b->summary}, options,
        graphs::change_rule(graphs::CostMetric::kFlops), s->diff.engine.get());
    s->graph = std::move(paired.graph);
  }
  s->a = std::move(a);
  s->b = std::move(b);
  return s;
}

}  // namespace

SessionPtr make_session(std::shared_ptr<const LoadedRun> a, std::shared_ptr<const LoadedRun> b,
                        const DiffOptions& options) {
  return build_session(std::move(a), std::move(b), options);
}

SessionPtr make_preview_session(std::shared_ptr<const LoadedRun> a) {
  auto s = std::make_shared<Session>();
  s->diff = single_run_tree(a->summary, a->data);
  s->a = std::move(a);
  return s;
}

SessionPtr session_for_rank(std::shared_ptr<const RankSet> ranks, int index) {
  auto s = build_session(ranks->runs.at(static_cast<std::size_t>(index)), nullptr, {});
  s->ranks = std::move(ranks);
  s->rank_index = index;
  return s;
}

}  // namespace flopscope::gui
