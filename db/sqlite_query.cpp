#include "db/sqlite_query.h"

#include "db/model/input_file.h"
#include "db/sqlite/sqlite.h"

namespace flopscope {

struct SqliteRows::Impl {
  sqlite::Statement statement;
};

SqliteRows::SqliteRows(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
SqliteRows::SqliteRows(SqliteRows&&) noexcept = default;
SqliteRows& SqliteRows::operator=(SqliteRows&&) noexcept = default;
SqliteRows::~SqliteRows() = default;

StatusOr<bool> SqliteRows::next() {
  return impl_->statement.step();
}
bool SqliteRows::is_null(int col) const {
  return impl_->statement.is_null(col);
}
std::int64_t SqliteRows::int64(int col) const {
  return impl_->statement.int64(col);
}
double SqliteRows::real(int col) const {
  return impl_->statement.real(col);
}
std::string_view SqliteRows::text(int col) const {
  return impl_->statement.text(col);
}

struct SqliteReadOnly::Impl {
  sqlite::Database db;
};

SqliteReadOnly::SqliteReadOnly(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
SqliteReadOnly::SqliteReadOnly(SqliteReadOnly&&) noexcept = default;
SqliteReadOnly& SqliteReadOnly::operator=(SqliteReadOnly&&) noexcept = default;
SqliteReadOnly::~SqliteReadOnly() = default;

StatusOr<SqliteReadOnly> SqliteReadOnly::open(const std::string& path) {
  FS_RETURN_IF_ERROR(check_input_file(path));
  FS_ASSIGN_OR_RETURN(sqlite::Database db, sqlite::Database::open(path, SQLITE_OPEN_READONLY));
  // Opening is lazy: touch the schema so that a file that is not SQLite fails here.
  auto probe = db.query_int("SELECT count(*) FROM sqlite_master");
  if (!probe.ok()) return probe.status();
  return SqliteReadOnly(std::make_unique<Impl>(Impl{std::move(db)}));
}

const std::string& SqliteReadOnly::path() const {
  return impl_->db.path();
}

StatusOr<std::vector<std::string>> SqliteReadOnly::columns(std::string_view table) {
  std::string quoted;
  for (char c : table) {
    if (c == '"') quoted += '"';
    quoted += c;
  }
  FS_ASSIGN_OR_RETURN(auto st, impl_->db.prepare("PRAGMA table_info(\"" + quoted + "\")"));
  std::vector<std::string> names;
  for (;;) {
    FS_ASSIGN_OR_RETURN(bool row, st.step());
    if (!row) break;
    names.push_back(st.str(1));
  }
  return names;
}

StatusOr<SqliteRows> SqliteReadOnly::query(std::string_view sql) {
  FS_ASSIGN_OR_RETURN(auto st, impl_->db.prepare(sql));
  return SqliteRows(std::make_unique<SqliteRows::Impl>(SqliteRows::Impl{std::move(st)}));
}

}  // namespace flopscope
