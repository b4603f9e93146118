#include "db/sqlite/sqlite.h"

#include <chrono>
#include <cstdlib>
#include <string>
#include <utility>

namespace flopscope::sqlite {

StatusCode status_code_for(int rc) {
  switch (rc & 0xff) {
    case SQLITE_CORRUPT:
    case SQLITE_NOTADB:
    case SQLITE_FORMAT:
      return StatusCode::kCorrupt;
    case SQLITE_IOERR:
    case SQLITE_FULL:
    case SQLITE_CANTOPEN:
    case SQLITE_READONLY:
    case SQLITE_PERM:
      return StatusCode::kIoError;
    case SQLITE_BUSY:
    case SQLITE_LOCKED:
      return StatusCode::kUnavailable;
    case SQLITE_CONSTRAINT:
    case SQLITE_MISMATCH:
    case SQLITE_TOOBIG:
      return StatusCode::kInvalidArgument;
    default:
      return StatusCode::kInternal;
  }
}

namespace {

using Clock = std::chrono::steady_clock;

// Seconds any connection opened for reading may spend in queries before they are interrupted: a crafted
// file (a recursive view where a table should be) must not hang the reader. FLOPSCOPE_QUERY_TIME_LIMIT_S
// raises (or, for tests, lowers) it.
int query_time_limit_s() {
  if (const char* env = std::getenv("FLOPSCOPE_QUERY_TIME_LIMIT_S")) {
    char* end = nullptr;
    long v = std::strtol(env, &end, 10);
    if (end != env && *end == '\0' && v > 0 && v <= 86'400 * 7) return static_cast<int>(v);
  }
  return 600;
}

int past_deadline(void* deadline) {
  return Clock::now() > *static_cast<Clock::time_point*>(deadline) ? 1 : 0;
}

// Defences for files that may come from anyone (SQLite's "defense against dark arts"): no writes to the
// schema, no SQL functions run from the schema (views, triggers), and a time limit on every query.
void defend(sqlite3* db, Clock::time_point* deadline) {
  sqlite3_db_config(db, SQLITE_DBCONFIG_DEFENSIVE, 1, static_cast<int*>(nullptr));
  sqlite3_db_config(db, SQLITE_DBCONFIG_TRUSTED_SCHEMA, 0, static_cast<int*>(nullptr));
  sqlite3_db_config(db, SQLITE_DBCONFIG_ENABLE_TRIGGER, 0, static_cast<int*>(nullptr));
  sqlite3_limit(db, SQLITE_LIMIT_LENGTH, 256 << 20);  // one value at most 256 MiB
  *deadline = Clock::now() + std::chrono::seconds(query_time_limit_s());
  sqlite3_progress_handler(db, 10'000, &past_deadline, deadline);
}

}  // namespace

Status error_status(sqlite3* db, int rc, const std::string& path, std::string_view what) {
  if ((rc & 0xff) == SQLITE_INTERRUPT) {
    return InvalidArgument(path + ": query took longer than " + std::to_string(query_time_limit_s()) +
                           " s, stopped (a crafted file? FLOPSCOPE_QUERY_TIME_LIMIT_S raises the limit)");
  }
  // The connection's message is more specific than the code's ("no such table: run"), but only when
  // it belongs to this error.
  const char* msg = (db != nullptr && sqlite3_errcode(db) == rc) ? sqlite3_errmsg(db) : sqlite3_errstr(rc);
  const StatusCode code = status_code_for(rc);
  std::string text = path + ": ";
  if (!what.empty()) text.append(what).append(": ");
  if (code == StatusCode::kCorrupt) text += "corrupt SQLite file: ";
  text += msg;
  return {code, std::move(text)};
}

StatusOr<Database> Database::open(const std::string& path, int flags, const std::string& name) {
  // Memory statistics take a global mutex on every SQLite allocation (a bulk load makes millions) and
  // nothing here reads them. Settable only before SQLite initialises itself, i.e. before the first open;
  // if another library got there first, the call fails harmlessly and the statistics stay on.
  [[maybe_unused]] static const int no_memory_statistics = sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
  const std::string& shown = name.empty() ? path : name;
  sqlite3* db = nullptr;
  int rc = sqlite3_open_v2(path.c_str(), &db, flags | SQLITE_OPEN_NOMUTEX, nullptr);
  if (rc != SQLITE_OK) {
    Status s = error_status(db, rc, shown, "cannot open");
    sqlite3_close(db);  // a handle is returned even on failure
    return s;
  }
  sqlite3_extended_result_codes(db, 1);
  sqlite3_busy_timeout(db,
                       5000);  // another process writing the file: wait a little, then "database is locked"
  Database out(db, shown);
  if ((flags & SQLITE_OPEN_READONLY) != 0) FS_RETURN_IF_ERROR(out.treat_as_untrusted());
  return out;
}

Status Database::treat_as_untrusted() {
  deadline_ = std::make_unique<Clock::time_point>();
  defend(db_, deadline_.get());
  return exec("PRAGMA trusted_schema = OFF");
}

Database::Database(Database&& other) noexcept
    : db_(std::exchange(other.db_, nullptr)),
      path_(std::move(other.path_)),
      deadline_(std::move(other.deadline_)) {}

Database& Database::operator=(Database&& other) noexcept {
  if (this != &other) {
    (void)close();
    db_ = std::exchange(other.db_, nullptr);
    path_ = std::move(other.path_);
    deadline_ = std::move(other.deadline_);
  }
  return *this;
}

Database::~Database() {
  (void)close();
}

Status Database::close() {
  if (db_ == nullptr) return {};
  int rc = sqlite3_close(db_);
  if (rc != SQLITE_OK) {
    Status s = error(rc, "cannot close");
    sqlite3_close_v2(db_);  // unfinalised statements: closes once they are gone
    db_ = nullptr;
    return s;
  }
  db_ = nullptr;
  return {};
}

Status Database::exec(std::string_view sql) {
  std::string text(sql);  // sqlite3_exec needs a terminated string
  FS_SQLITE_CHECK(*this, "", sqlite3_exec(db_, text.c_str(), nullptr, nullptr, nullptr));
  return {};
}

StatusOr<Statement> Database::prepare(std::string_view sql) {
  sqlite3_stmt* stmt = nullptr;
  int rc = sqlite3_prepare_v3(db_, sql.data(), static_cast<int>(sql.size()), SQLITE_PREPARE_PERSISTENT, &stmt,
                              nullptr);
  if (rc != SQLITE_OK) {
    sqlite3_finalize(stmt);
    return error(rc, "");
  }
  return Statement(stmt, path_);
}

StatusOr<std::int64_t> Database::query_int(std::string_view sql) {
  FS_ASSIGN_OR_RETURN(Statement stmt, prepare(sql));
  FS_ASSIGN_OR_RETURN(bool row, stmt.step());
  if (!row) return Internal(path_ + ": no result from " + std::string(sql));
  return stmt.int64(0);
}

Statement::Statement(Statement&& other) noexcept
    : stmt_(std::exchange(other.stmt_, nullptr)), path_(std::move(other.path_)) {}

Statement& Statement::operator=(Statement&& other) noexcept {
  if (this != &other) {
    sqlite3_finalize(stmt_);
    stmt_ = std::exchange(other.stmt_, nullptr);
    path_ = std::move(other.path_);
  }
  return *this;
}

Statement::~Statement() {
  sqlite3_finalize(stmt_);
}

StatusOr<bool> Statement::step() {
  int rc = sqlite3_step(stmt_);
  if (rc == SQLITE_ROW) return true;
  if (rc == SQLITE_DONE) return false;
  return error_status(sqlite3_db_handle(stmt_), rc, path_, "");
}

Status Statement::run() {
  int rc = sqlite3_step(stmt_);
  if (rc != SQLITE_DONE && rc != SQLITE_ROW) {
    Status s = error_status(sqlite3_db_handle(stmt_), rc, path_, "");
    sqlite3_reset(stmt_);
    return s;
  }
  return check(sqlite3_reset(stmt_), "");
}

Status Statement::reset() {
  return check(sqlite3_reset(stmt_), "");
}

std::string_view Statement::text(int col) const {
  const auto* p = reinterpret_cast<const char*>(sqlite3_column_text(stmt_, col));
  if (p == nullptr) return {};
  return {p, static_cast<std::size_t>(sqlite3_column_bytes(stmt_, col))};
}

}  // namespace flopscope::sqlite
