#include "db/sqlite/sqlite.h"

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

Status error_status(sqlite3* db, int rc, const std::string& path, std::string_view what) {
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
  const std::string& shown = name.empty() ? path : name;
  sqlite3* db = nullptr;
  int rc = sqlite3_open_v2(path.c_str(), &db, flags | SQLITE_OPEN_NOMUTEX, nullptr);
  if (rc != SQLITE_OK) {
    Status s = error_status(db, rc, shown, "cannot open");
    sqlite3_close(db);  // a handle is returned even on failure
    return s;
  }
  sqlite3_extended_result_codes(db, 1);
  sqlite3_busy_timeout(db, 5000);  // another process writing the file: wait a little, then "database is locked"
  return Database(db, shown);
}

Database::Database(Database&& other) noexcept : db_(std::exchange(other.db_, nullptr)), path_(std::move(other.path_)) {}

Database& Database::operator=(Database&& other) noexcept {
  if (this != &other) {
    (void)close();
    db_ = std::exchange(other.db_, nullptr);
    path_ = std::move(other.path_);
  }
  return *this;
}

Database::~Database() { (void)close(); }

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

Statement::~Statement() { sqlite3_finalize(stmt_); }

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

Status Statement::reset() { return check(sqlite3_reset(stmt_), ""); }

std::string_view Statement::text(int col) const {
  const auto* p = reinterpret_cast<const char*>(sqlite3_column_text(stmt_, col));
  if (p == nullptr) return {};
  return {p, static_cast<std::size_t>(sqlite3_column_bytes(stmt_, col))};
}

}  // namespace flopscope::sqlite
