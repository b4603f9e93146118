// The fleet store: run summaries of many runs in PostgreSQL (libpq), for history and baselines. SQLite stays
// the database of one run; this keeps, per run, what db/fleet/fleet_records.h holds (and, unless told not
// to, the run file itself, so that `diff --baseline` diffs against the real run with the same code).
//
// The store's schema is versioned (table flopscope_store, key schema_version); a store written by a newer
// flopscope is refused, never half-read. A push is one transaction, keyed by the run's content key: the
// same run pushed twice is stored once.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "db/fleet/fleet_records.h"
#include "db/model/status.h"

namespace flopscope {

inline constexpr int kFleetStoreSchemaVersion = 1;

// A store URL: postgresql://[user[:password]@][host][:port][/dbname][?param=value&...]. libpq's own
// parameters pass through; flopscope's (branch, machine, model) select runs and are removed before
// connecting.
struct StoreUrl {
  std::string conninfo;                 // what libpq gets
  std::string display;                  // the URL without its password (redact_passwords), for messages
  bool default_connect_timeout = true;  // the URL sets no connect_timeout: StoreLimits' is used
  std::string branch, machine, model;
};
StatusOr<StoreUrl> parse_store_url(const std::string& url);

struct PushMeta {
  std::string git_commit, git_branch, machine;
  std::string run_name;   // file name of the pushed run (its extension says how to read it back)
  std::string run_bytes;  // the run file; empty: summary only
};

struct PushResult {
  std::int64_t run_id = 0;
  bool already_stored = false;  // with the same commit, branch and machine (other labels: an error)
};

// How long a command waits on the store; 0: no limit. A wait past a limit is an error that names it.
struct StoreLimits {
  int connect_timeout_s = 10;  // unless the URL sets connect_timeout
  int statement_timeout_s = 60;
  int lock_timeout_s = 10;  // a lock held by another session (a push, a migration, a LOCK TABLE)
};

// Which runs: those matching every non-empty field, oldest first; `last` > 0 keeps the newest `last`.
struct RunFilter {
  std::string branch, machine, model;
  int last = 0;
};

struct StoredRunFile {
  std::string name;
  std::string bytes;
};

class FleetStore {
 public:
  // Connects, bounded by `limits` (connect_timeout unless the URL sets one), which every later statement
  // of this connection keeps (statement_timeout, lock_timeout).
  static StatusOr<std::unique_ptr<FleetStore>> connect(const StoreUrl& url, const StoreLimits& limits = {});
  ~FleetStore();
  FleetStore(const FleetStore&) = delete;
  FleetStore& operator=(const FleetStore&) = delete;

  // Creates the schema on first use; one transaction. A run already stored (same content key) with another
  // commit, branch or machine is an error that says so: a run is stored once, under the labels it was
  // first pushed with, and a push never reports labels it did not store.
  StatusOr<PushResult> push(const FleetRun& run, const PushMeta& meta);

  StatusOr<std::vector<StoredRunHeader>> runs(const RunFilter& filter);
  // Module rows of the given runs whose path `keep` accepts, in run order then module order.
  StatusOr<std::vector<ModulePoint>> modules(const std::vector<std::int64_t>& run_ids,
                                             const std::function<bool(const std::string&)>& keep);
  StatusOr<StoredRunFile> run_file(std::int64_t run_id);

 private:
  struct Impl;
  explicit FleetStore(std::unique_ptr<Impl> impl);
  // Fails unless a store with a schema this build reads is there.
  Status check_schema();
  std::unique_ptr<Impl> impl_;
};

}  // namespace flopscope
