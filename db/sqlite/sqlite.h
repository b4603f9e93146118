// The one RAII wrapper around SQLite's C API: a connection and a prepared statement, move-only, with
// typed bind/column helpers. Failures become Status messages that name the file and carry SQLite's text.
// Only db/ includes this header (and sqlite3.h).
#pragma once

#include <sqlite3.h>

#include <chrono>
#include <cstdint>
#include <limits>
#include <memory>
#include <string>
#include <string_view>

#include "db/model/records.h"
#include "db/model/status.h"

namespace flopscope::sqlite {

// Maps a SQLite result code to a StatusCode: corruption, I/O, busy, misuse.
StatusCode status_code_for(int rc);

// "FILE: what: sqlite's message" (the connection's last message, or the code's text without one).
Status error_status(sqlite3* db, int rc, const std::string& path, std::string_view what);

class Statement;

class Database {
 public:
  // flags: SQLITE_OPEN_READONLY, or SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE. ":memory:" works.
  // Read-only connections treat the file as untrusted: defensive mode, trusted_schema off, no triggers, a
  // time limit on queries (FLOPSCOPE_QUERY_TIME_LIMIT_S, default 600 s).
  // `name` is the file name messages use (default: path), e.g. the user's file for an in-memory copy.
  static StatusOr<Database> open(const std::string& path, int flags, const std::string& name = "");
  // A handle that holds no connection (a placeholder to move an open one into).
  static Database closed() { return Database(nullptr, ""); }

  Database(Database&& other) noexcept;
  Database& operator=(Database&& other) noexcept;
  Database(const Database&) = delete;
  Database& operator=(const Database&) = delete;
  ~Database();

  // Defensive mode, trusted_schema off, no triggers, a query time limit: for connections to files that
  // may come from anyone (open() does this for read-only ones; an in-memory copy of such a file needs it
  // too).
  Status treat_as_untrusted();

  // Runs one or more statements without results.
  Status exec(std::string_view sql);
  StatusOr<Statement> prepare(std::string_view sql);
  // The single integer a query such as "PRAGMA user_version" returns.
  StatusOr<std::int64_t> query_int(std::string_view sql);
  Status close();

  // "FILE: what: sqlite's message" with a code chosen from rc.
  Status error(int rc, std::string_view what) const { return error_status(db_, rc, path_, what); }
  sqlite3* get() const { return db_; }
  const std::string& path() const { return path_; }

 private:
  Database(sqlite3* db, std::string path) : db_(db), path_(std::move(path)) {}
  sqlite3* db_ = nullptr;
  std::string path_;
  std::unique_ptr<std::chrono::steady_clock::time_point> deadline_;  // the progress handler's; stable address
};

class Statement {
 public:
  Statement(Statement&& other) noexcept;
  Statement& operator=(Statement&& other) noexcept;
  Statement(const Statement&) = delete;
  Statement& operator=(const Statement&) = delete;
  ~Statement();

  // Binding: 1-based indexes as in SQLite. Text is copied by SQLite (SQLITE_TRANSIENT).
  Status bind(int i, std::int64_t v) { return check(sqlite3_bind_int64(stmt_, i, v), "bind"); }
  Status bind(int i, int v) { return check(sqlite3_bind_int(stmt_, i, v), "bind"); }
  Status bind(int i, double v) { return check(sqlite3_bind_double(stmt_, i, v), "bind"); }
  Status bind(int i, bool v) { return check(sqlite3_bind_int(stmt_, i, v ? 1 : 0), "bind"); }
  Status bind(int i, std::string_view v) {
    return check(sqlite3_bind_text(stmt_, i, v.data(), static_cast<int>(v.size()), SQLITE_TRANSIENT), "bind");
  }
  Status bind(int i, const std::string& v) { return bind(i, std::string_view(v)); }
  Status bind(int i, const char* v) { return bind(i, std::string_view(v)); }
  Status bind_null(int i) { return check(sqlite3_bind_null(stmt_, i), "bind"); }
  Status bind_blob(int i, std::string_view bytes) {
    return check(sqlite3_bind_blob(stmt_, i, bytes.data(), static_cast<int>(bytes.size()), SQLITE_TRANSIENT),
                 "bind");
  }
  // The Status for a failed sqlite3_bind_* code (callers binding through get() directly).
  Status check_bind(int rc) const { return check(rc, "bind"); }
  // kNoId is stored as NULL.
  Status bind_id(int i, Id id) { return id == kNoId ? bind_null(i) : bind(i, std::int64_t{id}); }

  // true: a row is ready; false: done. Errors carry the file name and SQLite's message.
  StatusOr<bool> step();
  // Steps a statement that returns no rows, then resets it for the next bindings.
  Status run();
  Status reset();

  bool is_null(int col) const { return sqlite3_column_type(stmt_, col) == SQLITE_NULL; }
  std::int64_t int64(int col) const { return sqlite3_column_int64(stmt_, col); }
  int int32(int col) const { return sqlite3_column_int(stmt_, col); }
  // SQLite stores NaN as NULL: NULL reads back as NaN.
  double real(int col) const {
    return is_null(col) ? std::numeric_limits<double>::quiet_NaN() : sqlite3_column_double(stmt_, col);
  }
  std::string_view text(int col) const;
  std::string str(int col) const { return std::string(text(col)); }
  // Valid until the next step or reset; empty for NULL.
  std::string_view blob(int col) const {
    const void* p = sqlite3_column_blob(stmt_, col);
    const int n = sqlite3_column_bytes(stmt_, col);
    return p == nullptr ? std::string_view()
                        : std::string_view(static_cast<const char*>(p), static_cast<std::size_t>(n));
  }
  // NULL reads back as kNoId.
  Id id(int col) const { return is_null(col) ? kNoId : sqlite3_column_int64(stmt_, col); }

  sqlite3_stmt* get() const { return stmt_; }

 private:
  friend class Database;
  Statement(sqlite3_stmt* stmt, std::string path) : stmt_(stmt), path_(std::move(path)) {}
  Status check(int rc, std::string_view what) const {
    if (rc == SQLITE_OK) return {};
    return error_status(sqlite3_db_handle(stmt_), rc, path_, what);
  }
  sqlite3_stmt* stmt_ = nullptr;
  std::string path_;
};

}  // namespace flopscope::sqlite

// Checked call for raw sqlite3_* calls: returns a Status naming the file and SQLite's message unless the
// call returned SQLITE_OK.
#define FS_SQLITE_CHECK(database, what, call)                                     \
  do {                                                                            \
    int fs_sqlite_rc_ = (call);                                                   \
    if (fs_sqlite_rc_ != SQLITE_OK) return (database).error(fs_sqlite_rc_, what); \
  } while (false)
