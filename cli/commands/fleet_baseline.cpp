// Installs the fleet-store loaders for `diff --baseline` and `exporter --store` (built only with libpq).
#include <unistd.h>

#include <algorithm>
#include <cstdio>

#include "cli/fleet_hooks.h"
#include "cli/run_input.h"
#include "db/fleet/pg_store.h"

namespace flopscope::cli {
namespace {

// The baseline run among `runs` (oldest first): the newest, or the one whose end-to-end P50 is the median
// of the newest `median_of` (the lower median for an even count). Device time when every run has it.
const StoredRunHeader& pick(const std::vector<StoredRunHeader>& runs, int median_of) {
  if (median_of <= 1) return runs.back();
  std::vector<const StoredRunHeader*> last;
  for (std::size_t i = runs.size() > static_cast<std::size_t>(median_of) ? runs.size() - median_of : 0;
       i < runs.size(); ++i) {
    last.push_back(&runs[i]);
  }
  bool device = std::all_of(last.begin(), last.end(), [](const auto* r) { return r->device.known; });
  auto p50 = [device](const StoredRunHeader* r) { return device ? r->device.p50 : r->host.p50; };
  std::stable_sort(last.begin(), last.end(), [&](const auto* a, const auto* b) { return p50(a) < p50(b); });
  return *last[(last.size() - 1) / 2];
}

StatusOr<Baseline> load_baseline(const BaselineRequest& request) {
  FS_ASSIGN_OR_RETURN(StoreUrl url, parse_store_url(request.url));
  FS_ASSIGN_OR_RETURN(auto store, FleetStore::connect(url));
  RunFilter filter{url.branch, url.machine, url.model, 0};
  FS_ASSIGN_OR_RETURN(auto runs, store->runs(filter));
  if (runs.empty()) {
    return NotFound(url.display + ": no stored run matches" +
                    (url.branch.empty() ? "" : " branch=" + url.branch) +
                    (url.machine.empty() ? "" : " machine=" + url.machine) +
                    (url.model.empty() ? "" : " model=" + url.model));
  }
  const StoredRunHeader& chosen = pick(runs, request.median_of);
  FS_ASSIGN_OR_RETURN(StoredRunFile file, store->run_file(chosen.id));
  // The run file goes back through the same reader as any run given on the command line.
  std::string ext = file.name.ends_with(".json.gz")
                        ? ".json.gz"
                        : file.name.substr(std::min(file.name.rfind('.'), file.name.size()));
  const char* tmpdir = std::getenv("TMPDIR");
  std::string tmpl = std::string(tmpdir && *tmpdir ? tmpdir : "/tmp") + "/flopscope-baseline-XXXXXX" + ext;
  int fd = ::mkstemps(tmpl.data(), static_cast<int>(ext.size()));
  if (fd < 0) return IoError(tmpl + ": cannot create a temporary file for the baseline run");
  bool written = ::write(fd, file.bytes.data(), file.bytes.size()) == static_cast<ssize_t>(file.bytes.size());
  ::close(fd);
  StatusOr<RunData> run = written ? open_run(tmpl) : StatusOr<RunData>(IoError(tmpl + ": cannot write"));
  ::unlink(tmpl.c_str());
  if (!run.ok()) return run.status().WithContext(url.display + " run " + std::to_string(chosen.id));
  Baseline b;
  b.run = std::move(run).value();
  if (!chosen.source_path.empty()) b.run.info.source_path = chosen.source_path;  // not the temporary file
  b.label = "store run " + std::to_string(chosen.id) + " (" +
            (chosen.git_branch.empty() ? "no branch" : chosen.git_branch) +
            (chosen.git_commit.empty() ? "" : " @ " + chosen.git_commit.substr(0, 12)) + ", pushed " +
            chosen.pushed_at +
            (request.median_of > 1 ? ", median of the last " +
                                         std::to_string(std::min<std::size_t>(runs.size(), request.median_of))
                                   : "") +
            ")";
  return b;
}

StatusOr<ExpositionSource> load_latest(const std::string& text, int timeout_s) {
  FS_ASSIGN_OR_RETURN(StoreUrl url, parse_store_url(text));
  FS_ASSIGN_OR_RETURN(auto store, FleetStore::connect(url, StoreLimits{timeout_s, timeout_s, timeout_s}));
  FS_ASSIGN_OR_RETURN(auto runs, store->runs(RunFilter{url.branch, url.machine, url.model, 1}));
  ExpositionSource s;
  s.kind = "store";
  s.source = url.display;
  if (runs.empty()) return s;  // an empty store exports nothing yet, which is not an error
  const StoredRunHeader& latest = runs.back();
  FS_ASSIGN_OR_RETURN(auto points, store->modules({latest.id}, [](const std::string&) { return true; }));
  s.source = url.display + " run " + std::to_string(latest.id);
  s.has_costs = true;
  s.host = latest.host;
  s.device = latest.device;
  s.iterations = latest.iterations;
  for (auto& p : points) s.modules.push_back(std::move(p.module));
  return s;
}

const bool installed = [] {
  fleet_baseline_loader() = load_baseline;
  fleet_latest_loader() = load_latest;
  return true;
}();

}  // namespace
}  // namespace flopscope::cli
