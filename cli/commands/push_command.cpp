// flopscope push RUN --to postgresql://...: stores the run's summary (and the run file) in a fleet store.
#include <cstdio>
#include <cstdlib>

#include "analyzer/fleet/fleet_run.h"
#include "analyzer/summary.h"
#include "cli/command.h"
#include "cli/run_input.h"
#include "db/fleet/pg_store.h"
#include "db/model/atomic_file.h"
#include "db/model/text_escape.h"

namespace flopscope::cli {
namespace {

// The first non-empty of a flag and environment variables (CI systems each name them differently).
std::string first_of(const std::string& flag, std::initializer_list<const char*> env) {
  if (!flag.empty()) return flag;
  for (const char* name : env) {
    const char* v = std::getenv(name);
    if (v && *v) return v;
  }
  return "";
}

class PushCommand final : public Command {
 public:
  void setup(CLI::App& app) override {
    app.add_option("run", path_, "Run database (or trace file) to store")->required();
    app.add_option("--to", url_, "Fleet store: postgresql://[user[:password]@]host[:port]/dbname[?...]")
        ->required();
    app.add_option("--git-commit", commit_,
                   "Commit the run belongs to (default: $FLOPSCOPE_GIT_COMMIT, $GITHUB_SHA, $CI_COMMIT_SHA)");
    app.add_option("--git-branch", branch_,
                   "Branch (default: $FLOPSCOPE_GIT_BRANCH, $GITHUB_REF_NAME, $CI_COMMIT_REF_NAME)");
    app.add_option("--machine", machine_, "Machine name (default: $FLOPSCOPE_MACHINE, else the run's host)");
    app.add_option("--lock-timeout", lock_timeout_s_,
                   "Seconds to wait for a lock another session holds on the store before giving up "
                   "(default 10)")
        ->check(CLI::Range(1, 3600));
    app.add_flag("--summary-only", summary_only_,
                 "Store the summary without the run file (`diff --baseline` then cannot use this run)");
  }

  int run() override {
    StatusOr<StoreUrl> url = parse_store_url(url_);
    if (!url.ok()) return report_error(url.status());
    StatusOr<RunData> run = open_run(path_);
    if (!run.ok()) return report_error(run.status());
    FleetRun fleet = build_fleet_run(*run, summarize(*run));
    PushMeta meta;
    meta.git_commit = first_of(commit_, {"FLOPSCOPE_GIT_COMMIT", "GITHUB_SHA", "CI_COMMIT_SHA"});
    meta.git_branch = first_of(branch_, {"FLOPSCOPE_GIT_BRANCH", "GITHUB_REF_NAME", "CI_COMMIT_REF_NAME"});
    meta.machine = first_of(machine_, {"FLOPSCOPE_MACHINE"});
    if (meta.machine.empty()) meta.machine = run->info.host;
    if (!summary_only_) {
      StatusOr<std::string> bytes = read_file(path_);
      if (!bytes.ok()) return report_error(bytes.status());
      meta.run_bytes = std::move(bytes).value();
      meta.run_name = path_.substr(path_.rfind('/') == std::string::npos ? 0 : path_.rfind('/') + 1);
    }
    StoreLimits limits;
    limits.lock_timeout_s = lock_timeout_s_;
    StatusOr<std::unique_ptr<FleetStore>> store = FleetStore::connect(*url, limits);
    if (!store.ok()) return report_error(store.status());
    StatusOr<PushResult> pushed = (*store)->push(fleet, meta);
    if (!pushed.ok()) return report_error(pushed.status());
    // The labels printed are the stored ones: a run stored under others is an error (FleetStore::push).
    auto shown = [](const std::string& v) { return v.empty() ? std::string("-") : terminal_safe(v, false); };
    std::printf(
        "%s: %s as run %lld in %s (%zu modules, %zu op signatures, %zu parameters; branch %s, commit %s)\n",
        terminal_safe(path_, false).c_str(), pushed->already_stored ? "already stored" : "stored",
        static_cast<long long>(pushed->run_id), terminal_safe(url->display, false).c_str(),
        fleet.modules.size(), fleet.ops.size(), fleet.params.size(), shown(meta.git_branch).c_str(),
        shown(meta.git_commit).c_str());
    return kExitOk;
  }

 private:
  std::string path_, url_, commit_, branch_, machine_;
  bool summary_only_ = false;
  int lock_timeout_s_ = 10;
};

}  // namespace

FLOPSCOPE_REGISTER_COMMAND(PushCommand, "push", "Store a run's summary in a fleet store (PostgreSQL)", 80);

}  // namespace flopscope::cli
