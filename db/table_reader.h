// Reading whole tables into record vectors: one statement for small tables; for large ones, several
// threads with their own read-only connections, each reading one id range straight into its place in the
// result. Internal to db/.
#pragma once

#include <algorithm>
#include <atomic>
#include <latch>
#include <memory>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "db/model/progress.h"
#include "db/sqlite/sqlite.h"

namespace flopscope {

// A query on a table failed to prepare: for a file that passed the run-database checks, a missing table or
// column means its schema text was damaged (SQLite reports a plain error for that).
inline Status unreadable_table(const Status& s, std::string_view table) {
  const StatusCode code = s.code() == StatusCode::kInternal ? StatusCode::kCorrupt : s.code();
  return {code, s.message() + " (table " + std::string(table) + " does not match the run database schema)"};
}

// Steps `stmt` to the end, calling row(stmt) for each row; `table` goes into error messages.
template <typename RowFn>
Status for_each_row(sqlite::Statement& stmt, std::string_view table, RowFn&& row) {
  while (true) {
    StatusOr<bool> more = stmt.step();
    if (!more.ok()) {
      const Status& s = more.status();
      return Status(s.code(), s.message() + " (reading table " + std::string(table) + ")");
    }
    if (!*more) return {};
    FS_RETURN_IF_ERROR(row(stmt));
  }
}

template <typename RowFn>
Status for_each_row(sqlite::Database& db, std::string_view table, std::string_view sql, RowFn&& row) {
  StatusOr<sqlite::Statement> prepared = db.prepare(sql);
  if (!prepared.ok()) return unreadable_table(prepared.status(), table);
  return for_each_row(*prepared, table, row);
}

inline constexpr std::int64_t kRowsPerReaderThread = 100'000;
inline constexpr std::int64_t kMaxReaderThreads = 8;
inline constexpr std::int64_t kRowsForProgress = 200'000;  // smaller tables read in well under a second

// Counts rows read by several threads; one of them (the reporter) draws the progress line, since Progress
// is not thread-safe.
class ReadProgress {
 public:
  ReadProgress(const std::string& file, std::string_view table, std::int64_t rows)
      : progress_(rows >= kRowsForProgress
                      ? std::make_unique<Progress>("reading " + std::string(table) + " rows from " + file,
                                                   static_cast<std::uint64_t>(rows))
                      : nullptr) {}
  void add(std::uint64_t rows, bool reporter) {
    if (progress_ == nullptr) return;
    const std::uint64_t total = done_.fetch_add(rows, std::memory_order_relaxed) + rows;
    if (reporter) progress_->update(total);
  }
  static constexpr std::uint64_t kBatch = 16'384;

 private:
  std::unique_ptr<Progress> progress_;
  std::atomic<std::uint64_t> done_{0};
};

// Reads `table` (integer primary key `id`) in id order into `out`, which must be empty; row(stmt, record)
// fills every field of one record from the selected `columns`.
template <typename T, typename RowFn>
Status read_table(sqlite::Database& db, std::string_view table, std::string_view columns, std::vector<T>& out,
                  RowFn row) {
  const std::string from = " FROM " + std::string(table);
  const std::string select = "SELECT " + std::string(columns) + from;
  StatusOr<std::int64_t> counted_rows = db.query_int("SELECT count(*)" + from);
  if (!counted_rows.ok()) return unreadable_table(counted_rows.status(), table);
  const std::int64_t rows = *counted_rows;
  // An in-memory copy (a migrated older file) has no file name for more connections.
  const char* file = sqlite3_db_filename(db.get(), "main");
  const auto cores = static_cast<std::int64_t>(std::max(1u, std::thread::hardware_concurrency()));
  const auto threads =
      static_cast<unsigned>(std::min({rows / kRowsPerReaderThread, cores, kMaxReaderThreads}));
  ReadProgress progress(db.path(), table, rows);
  if (threads < 2 || file == nullptr || *file == '\0') {
    out.reserve(static_cast<std::size_t>(rows));
    return for_each_row(db, table, select + " ORDER BY id", [&](sqlite::Statement& s) {
      if (out.size() % ReadProgress::kBatch == 0) progress.add(out.empty() ? 0 : ReadProgress::kBatch, true);
      return row(s, out.emplace_back());
    });
  }

  FS_ASSIGN_OR_RETURN(std::int64_t lo, db.query_int("SELECT min(id)" + from));
  FS_ASSIGN_OR_RETURN(std::int64_t hi, db.query_int("SELECT max(id)" + from));
  // Range i holds ids [bound(i), bound(i + 1) - 1]; unsigned arithmetic spans any int64 range.
  const auto span = static_cast<std::uint64_t>(hi) - static_cast<std::uint64_t>(lo);
  auto bound = [&](unsigned i) {
    return static_cast<std::int64_t>(static_cast<std::uint64_t>(lo) + span / threads * i +
                                     span % threads * i / threads);
  };
  out.resize(static_cast<std::size_t>(rows));
  std::vector<std::int64_t> counts(threads, -1);  // -1: that worker failed before counting
  std::vector<Status> results(threads);
  std::latch counted(threads);
  const std::string where = " WHERE id BETWEEN ?1 AND ?2";
  auto work = [&](unsigned i) -> Status {
    // Every worker reaches the latch exactly once, whatever fails.
    bool arrived = false;
    auto arrive = [&] {
      if (!arrived) counted.arrive_and_wait();
      arrived = true;
    };
    struct Guard {
      decltype(arrive)& f;
      ~Guard() { f(); }
    } guard{arrive};
    FS_ASSIGN_OR_RETURN(sqlite::Database conn, sqlite::Database::open(file, SQLITE_OPEN_READONLY, db.path()));
    const std::int64_t first = bound(i);
    const std::int64_t last = i + 1 == threads ? hi : bound(i + 1) - 1;
    FS_ASSIGN_OR_RETURN(sqlite::Statement count, conn.prepare("SELECT count(*)" + from + where));
    FS_RETURN_IF_ERROR(count.bind(1, first));
    FS_RETURN_IF_ERROR(count.bind(2, last));
    FS_ASSIGN_OR_RETURN(bool has_row, count.step());
    counts[i] = has_row ? count.int64(0) : 0;
    arrive();  // now every count is known, or some worker failed
    std::int64_t offset = 0, total = 0;
    for (unsigned j = 0; j < threads; ++j) {
      if (counts[j] < 0) return {};  // that worker reports its own error
      if (j < i) offset += counts[j];
      total += counts[j];
    }
    if (total != rows) return Corrupt(db.path() + ": table " + std::string(table) + " changed while reading");
    StatusOr<sqlite::Statement> prepared = conn.prepare(select + where + " ORDER BY id");
    if (!prepared.ok()) return unreadable_table(prepared.status(), table);
    sqlite::Statement& stmt = *prepared;
    FS_RETURN_IF_ERROR(stmt.bind(1, first));
    FS_RETURN_IF_ERROR(stmt.bind(2, last));
    const std::int64_t end = offset + counts[i];
    std::uint64_t since_update = 0;
    return for_each_row(stmt, table, [&](sqlite::Statement& s) -> Status {
      if (offset == end)
        return Corrupt(db.path() + ": table " + std::string(table) + " changed while reading");
      if (++since_update == ReadProgress::kBatch) {
        progress.add(since_update, i == 0);
        since_update = 0;
      }
      return row(s, out[static_cast<std::size_t>(offset++)]);
    });
  };
  std::vector<std::thread> workers;
  for (unsigned i = 0; i < threads; ++i) workers.emplace_back([&, i] { results[i] = work(i); });
  for (std::thread& t : workers) t.join();
  for (const Status& s : results) {
    if (!s.ok()) {
      out.clear();
      return s;
    }
  }
  return {};
}

}  // namespace flopscope
