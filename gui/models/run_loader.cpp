#include "gui/models/run_loader.h"

#include <QFileInfo>
#include <QMetaObject>
#include <QtConcurrent/QtConcurrentRun>
#include <mutex>

#include "analyzer/importers/load_run.h"
#include "graphs/open_graph.h"

namespace flopscope::gui {

StatusOr<SessionPtr> load_session(const QStringList& paths, const ProgressFn& progress) {
  if (paths.isEmpty() || paths.size() > 2) return InvalidArgument("open one run, or two runs to compare");
  auto step = [&](double f, const QString& stage) -> Status {
    if (progress && !progress(f, stage)) return Unavailable("canceled");
    return {};
  };
  std::shared_ptr<const LoadedRun> runs[2];
  QFuture<TimelineIndex> timeline;
  const double share = 1.0 / static_cast<double>(paths.size());
  for (qsizetype i = 0; i < paths.size(); ++i) {
    const QString name = QFileInfo(paths[i]).fileName();
    const double base = static_cast<double>(i) * share;
    FS_RETURN_IF_ERROR(step(base, QStringLiteral("Reading %1").arg(name)));
    auto run = std::make_shared<LoadedRun>();
    run->path = paths[i];
    FS_ASSIGN_OR_RETURN(run->data, load_run(paths[i].toStdString()));
    if (run->data.graph_nodes.empty() && !run->data.info.source_path.empty()) {
      FS_RETURN_IF_ERROR(step(base + 0.4 * share, QStringLiteral("Extracting the graph of %1").arg(name)));
      // Best effort: without the model file the other views still work; the graph page says why.
      Status graph = graphs::complete_graph_from_source(run->data, paths[i].toStdString());
      if (!graph.ok()) run->graph_note = QString::fromStdString(graph.message());
    }
    FS_RETURN_IF_ERROR(step(base + 0.6 * share, QStringLiteral("Summarising %1").arg(name)));
    // The timeline index only reads the records: build it beside the summary.
    if (i == 0) timeline = QtConcurrent::run([run] { return TimelineIndex::build(run->data); });
    run->summary = summarize(run->data);
    run->candidates = find_candidates(run->data, run->summary);
    runs[i] = run;
  }
  FS_RETURN_IF_ERROR(step(0.95, QStringLiteral("Building views")));
  SessionPtr session = make_session(runs[0], runs[1], timeline.result());
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

RunLoader::RunLoader(QObject* parent) : QObject(parent) { qRegisterMetaType<SessionPtr>(); }

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
  (void)QtConcurrent::run([paths, job, deliver]() {
    auto result = load_session(paths, [&](double f, const QString& stage) {
      if (job->is_canceled()) return false;
      deliver([f, stage](RunLoader& l) { Q_EMIT l.progress(f, stage); });
      return true;
    });
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
