#include "gui/models/run_loader.h"

#include <QFileInfo>
#include <QMetaObject>
#include <QtConcurrent/QtConcurrentRun>
#include <map>
#include <mutex>

#include "analyzer/analysis/load_run.h"
#include "analyzer/fleet/rank_parts.h"
#include "analyzer/fleet/ranks_analysis.h"
#include "graphs/open_graph.h"
#include "graphs/trace_graph.h"

namespace flopscope::gui {

namespace {

using StepFn = std::function<Status(double, const QString&)>;

// Completes a run's graph from its model file when it can (best effort: without the model file the other
// views still work; the note says why the graph page has none).
QString complete_graph(const QString& path, RunData& data) {
  if (!data.graph_nodes.empty() || data.info.source_path.empty()) return {};
  // A trace's graph is drawn from the ops that ran (graphs/trace_graph.h): there is no model to look for.
  if (graphs::records_no_graph(data.info.source_kind)) return {};
  Status graph = graphs::complete_graph_from_source(data, path.toStdString());
  return graph.ok() ? QString() : QString::fromStdString(graph.message());
}

// Completes one run's graph and analyses it (its summary and candidates; with `timeline`, its timeline on
// another thread meanwhile: it only reads the records); stages between base and base + share.
StatusOr<std::shared_ptr<const LoadedRun>> load_one(const QString& path, RunData data, double base,
                                                    double share, const StepFn& step,
                                                    QFuture<void>* timeline) {
  const QString name = QFileInfo(path).fileName();
  if (data.graph_nodes.empty() && !data.info.source_path.empty())
    FS_RETURN_IF_ERROR(step(base + 0.4 * share, QStringLiteral("Extracting the graph of %1").arg(name)));
  QString note = complete_graph(path, data);
  FS_RETURN_IF_ERROR(step(base + 0.6 * share, QStringLiteral("Summarising %1").arg(name)));
  RunAnalysis analysis = RunAnalysis::of(std::move(data), path.toStdString());
  if (timeline) *timeline = QtConcurrent::run([analysis] { (void)analysis.timeline(); });
  return std::make_shared<const LoadedRun>(path, std::move(analysis), std::move(note));
}

// The ranks of one distributed run through the rank facade (analyzer/fleet/ranks_analysis.h, as
// `flopscope report` opens them): each rank's graph completed as it is read; the session shows the first.
StatusOr<SessionPtr> load_ranks(const QStringList& paths, const StepFn& step) {
  std::vector<std::string> args;
  for (const auto& p : paths) args.push_back(p.toStdString());
  std::map<std::string, QString> notes;  // by part path (the analyses' labels)
  auto read = [&](std::size_t i, std::size_t n, RankPart& part) -> Status {
    const QString path = QString::fromStdString(part.path);
    FS_RETURN_IF_ERROR(step(0.9 * static_cast<double>(i) / static_cast<double>(n),
                            QStringLiteral("Reading %1").arg(QFileInfo(path).fileName())));
    notes[part.path] = complete_graph(path, part.run);
    return {};
  };
  FS_ASSIGN_OR_RETURN(RankAnalysis ranks, RankAnalysis::open(args, read));
  FS_RETURN_IF_ERROR(step(0.9, QStringLiteral("Comparing %1 ranks").arg(ranks.ranks().size())));
  auto set = std::make_shared<RankSet>();
  set->report = ranks.report();
  for (const RunAnalysis& run : ranks.ranks())
    set->runs.push_back(
        std::make_shared<const LoadedRun>(QString::fromStdString(run.label()), run, notes[run.label()]));
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
  return make_preview_session(
      std::make_shared<const LoadedRun>(paths[0], RunAnalysis::of(std::move(data), paths[0].toStdString())));
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
  QFuture<void> timeline;
  const double share = 1.0 / static_cast<double>(paths.size());
  for (qsizetype i = 0; i < paths.size(); ++i) {
    const double base = static_cast<double>(i) * share;
    FS_RETURN_IF_ERROR(step(base, QStringLiteral("Reading %1").arg(QFileInfo(paths[i]).fileName())));
    FS_ASSIGN_OR_RETURN(RunData data, load_run(paths[i].toStdString()));
    FS_ASSIGN_OR_RETURN(runs[i],
                        load_one(paths[i], std::move(data), base, share, step, i == 0 ? &timeline : nullptr));
  }
  FS_RETURN_IF_ERROR(step(0.95, QStringLiteral("Building views")));
  timeline.waitForFinished();
  SessionPtr session = make_session(runs[0], runs[1], options);
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
