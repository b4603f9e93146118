#include "gui/models/run_loader.h"

#include <QFileInfo>
#include <QMetaObject>
#include <QtConcurrent/QtConcurrentRun>
#include <mutex>

#include "analyzer/analysis/load_run.h"
#include "analyzer/fleet/rank_parts.h"
#include "graphs/open_graph.h"

namespace flopscope::gui {

namespace {

using StepFn = std::function<Status(double, const QString&)>;

// Reads one run, completes its graph when it can, and summarises it; stages between base and base + share.
StatusOr<std::shared_ptr<LoadedRun>> load_one(const QString& path, RunData data, double base, double share,
                                              const StepFn& step, QFuture<TimelineIndex>* timeline) {
  const QString name = QFileInfo(path).fileName();
  auto run = std::make_shared<LoadedRun>();
  run->path = path;
  run->data = std::move(data);
  if (run->data.graph_nodes.empty() && !run->data.info.source_path.empty()) {
    FS_RETURN_IF_ERROR(step(base + 0.4 * share, QStringLiteral("Extracting the graph of %1").arg(name)));
    // Best effort: without the model file the other views still work; the graph page says why.
    Status graph = graphs::complete_graph_from_source(run->data, path.toStdString());
    if (!graph.ok()) run->graph_note = QString::fromStdString(graph.message());
  }
  FS_RETURN_IF_ERROR(step(base + 0.6 * share, QStringLiteral("Summarising %1").arg(name)));
  // The timeline index only reads the records: build it beside the summary.
  if (timeline) *timeline = QtConcurrent::run([run] { return TimelineIndex::build(run->data); });
  run->summary = summarize(run->data);
  run->candidates = find_candidates(run->data, run->summary);
  return run;
}

// The ranks of one distributed run (analyzer/fleet/rank_parts.h, as `flopscope report` opens them): each
// rank a run, compared by the core; the session shows the first rank.
StatusOr<SessionPtr> load_ranks(const QStringList& paths, const StepFn& step) {
  std::vector<std::string> args;
  for (const auto& p : paths) args.push_back(p.toStdString());
  FS_ASSIGN_OR_RETURN(std::vector<std::string> files, rank_part_files(args));
  auto set = std::make_shared<RankSet>();
  std::vector<std::shared_ptr<LoadedRun>> runs;
  std::vector<int> ids;
  const double share = 0.9 / static_cast<double>(files.size());
  for (std::size_t i = 0; i < files.size(); ++i) {
    const QString path = QString::fromStdString(files[i]);
    const double base = static_cast<double>(i) * share;
    FS_RETURN_IF_ERROR(step(base, QStringLiteral("Reading %1").arg(QFileInfo(path).fileName())));
    FS_ASSIGN_OR_RETURN(RankPart part, open_rank_part(files[i]));
    FS_ASSIGN_OR_RETURN(auto run, load_one(path, std::move(part.run), base, share, step, nullptr));
    runs.push_back(std::move(run));
    ids.push_back(part.rank);
  }
  FS_RETURN_IF_ERROR(step(0.9, QStringLiteral("Comparing %1 ranks").arg(files.size())));
  std::vector<RankInput> inputs;
  for (std::size_t i = 0; i < runs.size(); ++i)
    inputs.push_back(RankInput{ids[i], files[i], &runs[i]->data, &runs[i]->summary});
  FS_ASSIGN_OR_RETURN(set->report, analyze_ranks(inputs));
  // The report orders ranks by rank; keep the runs in the same order.
  for (const auto& t : set->report.ranks) {
    for (std::size_t i = 0; i < runs.size(); ++i)
      if (ids[i] == t.rank) set->runs.push_back(runs[i]);
  }
  FS_RETURN_IF_ERROR(step(0.95, QStringLiteral("Building views")));
  SessionPtr session = session_for_rank(std::move(set), 0);
  FS_RETURN_IF_ERROR(step(1.0, QStringLiteral("Done")));
  return session;
}

}  // namespace

StatusOr<SessionPtr> load_preview(const QStringList& paths) {
  if (paths.size() != 1 || opens_ranks(paths)) return Unavailable("no preview");
  FS_ASSIGN_OR_RETURN(RunData data, load_stored_run_totals(paths[0].toStdString()));
  if (data.raw_rows) return Unavailable("the summary needs the rows");  // older file, dead compute, split ops
  auto run = std::make_shared<LoadedRun>();
  run->path = paths[0];
  run->summary = summarize(data);
  run->data = std::move(data);
  return make_preview_session(std::move(run));
}

bool opens_ranks(const QStringList& paths) {
  std::vector<std::string> args;
  for (const auto& p : paths) args.push_back(p.toStdString());
  return paths.size() > 2 || is_one_rank_set(args);
}

StatusOr<SessionPtr> load_session(const QStringList& paths, const ProgressFn& progress,
                                  const DiffOptions& options) {
  StepFn step = [&](double f, const QString& stage) -> Status {
    if (progress && !progress(f, stage)) return Unavailable("canceled");
    return {};
  };
  if (paths.isEmpty()) return InvalidArgument("open one run, two runs to compare, or the ranks of one run");
  if (opens_ranks(paths)) return load_ranks(paths, step);
  std::shared_ptr<const LoadedRun> runs[2];
  QFuture<TimelineIndex> timeline;
  const double share = 1.0 / static_cast<double>(paths.size());
  for (qsizetype i = 0; i < paths.size(); ++i) {
    const double base = static_cast<double>(i) * share;
    FS_RETURN_IF_ERROR(step(base, QStringLiteral("Reading %1").arg(QFileInfo(paths[i]).fileName())));
    FS_ASSIGN_OR_RETURN(RunData data, load_run(paths[i].toStdString()));
    FS_ASSIGN_OR_RETURN(runs[i],
                        load_one(paths[i], std::move(data), base, share, step, i == 0 ? &timeline : nullptr));
  }
  FS_RETURN_IF_ERROR(step(0.95, QStringLiteral("Building views")));
  SessionPtr session = make_session(runs[0], runs[1], timeline.result(), options);
  FS_RETURN_IF_ERROR(step(1.0, QStringLiteral("Done")));
  return session;
}

// Shared between the GUI thread and one worker: once canceled, the worker posts nothing more. The mutex
// makes "check, then post" atomic with respect to cancel() and the destructor.
struct RunLoader::Job {
  std::mutex mutex;
  bool canceled = false;
  bool is_canceled() {
    std::lock_guard lock(mutex);
    return canceled;
  }
  void cancel() {
    std::lock_guard lock(mutex);
    canceled = true;
  }
};

RunLoader::RunLoader(QObject* parent) : QObject(parent) {
  qRegisterMetaType<SessionPtr>();
}

RunLoader::~RunLoader() {
  if (job_) job_->cancel();
}

void RunLoader::load(const QStringList& paths) {
  cancel();
  auto job = std::make_shared<Job>();
  job_ = job;
  const quint64 gen = ++generation_;
  busy_ = true;
  Q_EMIT started(paths);
  RunLoader* self = this;
  // Queued calls on this object; a deleted object drops them, a stale generation ignores them.
  auto deliver = [job, self, gen](auto fn) {
    std::lock_guard lock(job->mutex);
    if (job->canceled) return;
    QMetaObject::invokeMethod(
        self,
        [self, gen, fn]() {
          if (self->generation_ == gen) fn(*self);
        },
        Qt::QueuedConnection);
  };
  (void)QtConcurrent::run([paths, job, deliver, options = options_]() {
    // The module tree from the aggregates first (a fraction of a second for a million kernels); failing
    // that (not a run database with aggregates), the full load below is all there is.
    if (auto preview = load_preview(paths); preview.ok()) {
      SessionPtr p = *preview;
      deliver([p](RunLoader& l) { Q_EMIT l.previewed(p); });
    }
    auto result = load_session(
        paths,
        [&](double f, const QString& stage) {
          if (job->is_canceled()) return false;
          deliver([f, stage](RunLoader& l) { Q_EMIT l.progress(f, stage); });
          return true;
        },
        options);
    if (result.ok()) {
      SessionPtr s = *result;
      deliver([s](RunLoader& l) {
        l.busy_ = false;
        Q_EMIT l.loaded(s);
      });
    } else {
      QString message = QString::fromStdString(result.status().message());
      deliver([message](RunLoader& l) {
        l.busy_ = false;
        Q_EMIT l.failed(message);
      });
    }
  });
}

void RunLoader::cancel() {
  if (!busy_) return;
  if (job_) job_->cancel();
  ++generation_;
  busy_ = false;
  Q_EMIT canceled();
}

}  // namespace flopscope::gui
