// Read-only SQL access to foreign SQLite files (e.g. Nsight Systems exports) for code outside db/, which
// may not include sqlite3.h. Built on the one SQLite wrapper (db/sqlite/sqlite.h).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "db/model/status.h"

namespace flopscope {

class SqliteRows {
 public:
  SqliteRows(SqliteRows&&) noexcept;
  SqliteRows& operator=(SqliteRows&&) noexcept;
  ~SqliteRows();

  // true: a row is ready; false: no more rows. Errors name the file.
  StatusOr<bool> next();
  bool is_null(int col) const;
  std::int64_t int64(int col) const;
  double real(int col) const;
  std::string_view text(int col) const;  // valid until the next call to next()

 private:
  friend class SqliteReadOnly;
  struct Impl;
  explicit SqliteRows(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

class SqliteReadOnly {
 public:
  // Opens read-only; a file that is not SQLite fails with a message naming it.
  static StatusOr<SqliteReadOnly> open(const std::string& path);
  SqliteReadOnly(SqliteReadOnly&&) noexcept;
  SqliteReadOnly& operator=(SqliteReadOnly&&) noexcept;
  ~SqliteReadOnly();

  // Column names of a table (PRAGMA table_info); empty when the table does not exist.
  StatusOr<std::vector<std::string>> columns(std::string_view table);
  StatusOr<SqliteRows> query(std::string_view sql);
  const std::string& path() const;

 private:
  struct Impl;
  explicit SqliteReadOnly(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace flopscope
