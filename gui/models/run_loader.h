// Opens one or two runs, or the ranks of one run, off the GUI thread: reads the files, summarises each run
// and builds the session, reporting progress; the result or a one-line error arrives by signal. A newer
// load() or cancel() discards the previous job's result, so the window never waits on a file.
#pragma once

#include <QObject>
#include <QStringList>
#include <functional>
#include <memory>

#include "db/model/status.h"
#include "gui/models/session.h"

namespace flopscope::gui {

// Called between stages with the fraction done; returning false cancels.
using ProgressFn = std::function<bool(double fraction, const QString& stage)>;

// True when the paths are the ranks of one distributed run (a folder, more than two files, or files that
// differ only in their rank token, e.g. run.rank0.db run.rank1.db) rather than one run or two to compare.
bool opens_ranks(const QStringList& paths);

// The synchronous load, for the worker, the screenshot mode and tests. One path: one run; two: a diff;
// the ranks of one run (opens_ranks): a session on its first rank with the ranks' comparison.
// Two runs are compared with `options` (the --map options of `flopscope diff`).
StatusOr<SessionPtr> load_session(const QStringList& paths, const ProgressFn& progress = {},
                                  const DiffOptions& options = {});

// The module tree of one run database from its stored aggregates (schema 007), without reading the op
// and kernel rows: what the window shows first while load_session reads them. Unavailable for anything
// else (a trace, two runs, ranks, or a file whose summary needs its rows).
StatusOr<SessionPtr> load_preview(const QStringList& paths);

class RunLoader : public QObject {
  Q_OBJECT

 public:
  explicit RunLoader(QObject* parent = nullptr);
  ~RunLoader() override;

  void load(const QStringList& paths);
  // How the next loads of two runs pair their modules (--map, --map-a, --map-b, --no-align).
  void setDiffOptions(const DiffOptions& options) { options_ = options; }
  void cancel();
  bool busy() const { return busy_; }

 Q_SIGNALS:
  void started(const QStringList& paths);
  void progress(double fraction, const QString& stage);
  // The first view of a single run database (load_preview), before `loaded` brings the whole session.
  void previewed(flopscope::gui::SessionPtr session);
  void loaded(flopscope::gui::SessionPtr session);
  void failed(const QString& message);
  void canceled();

 private:
  struct Job;
  std::shared_ptr<Job> job_;
  quint64 generation_ = 0;
  bool busy_ = false;
  DiffOptions options_;
};

}  // namespace flopscope::gui
