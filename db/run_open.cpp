// Recognising and opening run databases: header checks before SQLite, then table and version checks.
#include <array>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>

#include "db/migrations.h"
#include "db/model/input_file.h"
#include "db/run_database.h"
#include "db/run_database_format.h"

namespace flopscope {
namespace {

namespace fs = std::filesystem;

constexpr std::size_t kHeaderSize = 100;
constexpr char kMagic[] = "SQLite format 3";  // followed by a NUL: 16 bytes

std::uint32_t be32(const unsigned char* p) {
  return (std::uint32_t{p[0]} << 24) | (std::uint32_t{p[1]} << 16) | (std::uint32_t{p[2]} << 8) | p[3];
}

// Reads up to n bytes of the file's start; fewer when the file is shorter.
std::size_t read_prefix(const std::string& path, unsigned char* out, std::size_t n) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return 0;
  in.read(reinterpret_cast<char*>(out), static_cast<std::streamsize>(n));
  return static_cast<std::size_t>(in.gcount());
}

bool has_magic(const unsigned char* p, std::size_t n) {
  return n >= 16 && std::memcmp(p, kMagic, 16) == 0;
}

Status not_run_database(const std::string& path, const std::string& why) {
  return InvalidArgument(path + ": not a flopscope run database" + (why.empty() ? "" : " (" + why + ")"));
}

// Every table the schema steps create must be a real table (a view can recurse forever) holding at least the
// columns the steps give it. The expected tables come from running the steps on an empty database.
Status check_tables(sqlite::Database& db, std::span<const SchemaStep> steps, const std::string& path) {
  FS_ASSIGN_OR_RETURN(sqlite::Database expected,
                      sqlite::Database::open(":memory:", SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE));
  FS_RETURN_IF_ERROR(migrate(expected, steps));
  FS_ASSIGN_OR_RETURN(
      sqlite::Statement tables,
      expected.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE "
                       "'sqlite_%' ORDER BY name"));
  FS_ASSIGN_OR_RETURN(sqlite::Statement kind, db.prepare("SELECT type FROM sqlite_master WHERE name = ?"));
  FS_ASSIGN_OR_RETURN(sqlite::Statement want_cols, expected.prepare("SELECT name FROM pragma_table_info(?)"));
  FS_ASSIGN_OR_RETURN(sqlite::Statement have_cols,
                      db.prepare("SELECT count(*) FROM pragma_table_info(?1) WHERE name = ?2"));
  while (true) {
    FS_ASSIGN_OR_RETURN(bool more, tables.step());
    if (!more) return {};
    const std::string table = tables.str(0);
    FS_RETURN_IF_ERROR(kind.reset());
    FS_RETURN_IF_ERROR(kind.bind(1, table));
    FS_ASSIGN_OR_RETURN(bool found, kind.step());
    if (!found) return not_run_database(path, "no table " + table);
    if (kind.text(0) != "table") {
      return Corrupt(path + ": '" + table + "' is a " + kind.str(0) +
                     ", not a table (a damaged or crafted file)");
    }
    FS_RETURN_IF_ERROR(want_cols.reset());
    FS_RETURN_IF_ERROR(want_cols.bind(1, table));
    while (true) {
      FS_ASSIGN_OR_RETURN(bool col, want_cols.step());
      if (!col) break;
      FS_RETURN_IF_ERROR(have_cols.reset());
      FS_RETURN_IF_ERROR(have_cols.bind(1, table));
      FS_RETURN_IF_ERROR(have_cols.bind(2, want_cols.text(0)));
      FS_ASSIGN_OR_RETURN(bool row, have_cols.step());
      if (!row || have_cols.int64(0) == 0) {
        return Corrupt(path + ": table " + table + " has no column " + want_cols.str(0) +
                       " (a damaged or crafted file)");
      }
    }
  }
}

// The first schema version whose files carry the completeness marker (the step that creates run_complete);
// 0 when the steps have none.
std::int64_t marker_version(std::span<const SchemaStep> steps) {
  for (const SchemaStep& s : steps)
    if (s.sql.find("CREATE TABLE run_complete") != std::string_view::npos) return s.version;
  return 0;
}

// Files of a version with the marker must hold its row: the writer adds it last, in the final transaction,
// so a file a killed writer left behind (`*.tmp-XXXXXX`) is never read as a run.
Status check_complete(sqlite::Database& db, std::int64_t file_version, std::span<const SchemaStep> steps,
                      const std::string& path) {
  const std::int64_t since = marker_version(steps);
  if (since == 0 || file_version < since) return {};
  FS_ASSIGN_OR_RETURN(std::int64_t rows, db.query_int("SELECT count(*) FROM run_complete"));
  if (rows == 0) {
    return Corrupt(path +
                   ": incomplete run database (the process writing it did not finish: killed or failed)");
  }
  return {};
}

}  // namespace

bool looks_like_sqlite(const std::string& path) {
  if (!check_input_file(path).ok()) return false;  // a FIFO would block the sniff
  unsigned char buf[16];
  return has_magic(buf, read_prefix(path, buf, sizeof buf));
}

Status check_sqlite_file(const std::string& path) {
  std::error_code ec;
  fs::file_status st = fs::status(path, ec);
  if (!fs::exists(st)) return NotFound(path + ": no such file");
  if (fs::is_directory(st)) return InvalidArgument(path + ": is a directory, not a run database");
  FS_RETURN_IF_ERROR(check_input_file(path));
  std::array<unsigned char, kHeaderSize> h{};
  std::size_t n = read_prefix(path, h.data(), h.size());
  if (n == 0 && fs::file_size(path, ec) != 0) return IoError(path + ": cannot read");
  if (!has_magic(h.data(), n)) return InvalidArgument(path + ": not a SQLite database");
  if (n < kHeaderSize) return Corrupt(path + ": truncated SQLite database (" + std::to_string(n) + " bytes)");
  std::uint64_t page_size = (std::uint32_t{h[16]} << 8) | h[17];
  if (page_size == 1) page_size = 65536;
  if (page_size < 512 || (page_size & (page_size - 1)) != 0) {
    return Corrupt(path + ": corrupt SQLite header (page size " + std::to_string(page_size) + ")");
  }
  // The page count in the header is trustworthy when its "valid for" stamp matches the change counter.
  const std::uint32_t change_counter = be32(&h[24]);
  const std::uint64_t pages = be32(&h[28]);
  if (be32(&h[92]) == change_counter && pages > 0) {
    const std::uint64_t expected = pages * page_size;
    const std::uint64_t actual = fs::file_size(path, ec);
    if (!ec && actual < expected) {
      return Corrupt(path + ": truncated run database (" + std::to_string(actual) + " of " +
                     std::to_string(expected) + " bytes)");
    }
  }
  return {};
}

StatusOr<sqlite::Database> open_run_database(const std::string& path, std::span<const SchemaStep> steps,
                                             std::int64_t* file_version) {
  FS_RETURN_IF_ERROR(check_sqlite_file(path));
  FS_ASSIGN_OR_RETURN(sqlite::Database db, sqlite::Database::open(path, SQLITE_OPEN_READONLY));
  FS_ASSIGN_OR_RETURN(
      std::int64_t has_run,
      db.query_int("SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'run'"));
  if (has_run == 0) return not_run_database(path, "");
  FS_ASSIGN_OR_RETURN(std::int64_t app_id, db.query_int("PRAGMA application_id"));
  if (app_id != 0 && app_id != kRunDatabaseApplicationId) {
    return not_run_database(path, "application id " + std::to_string(app_id));
  }
  FS_ASSIGN_OR_RETURN(std::int64_t version, db.query_int("PRAGMA user_version"));
  const int latest = static_cast<int>(steps.size());
  if (version > latest) return too_new_error(path, version, latest);
  if (version <= 0) return not_run_database(path, "no schema version");
  if (file_version != nullptr) *file_version = version;
  if (version == latest) {
    FS_RETURN_IF_ERROR(check_tables(db, steps, path));
    FS_RETURN_IF_ERROR(check_complete(db, version, steps, path));
    return db;
  }

  // Older: migrate a copy in memory.
  FS_ASSIGN_OR_RETURN(sqlite::Database mem,
                      sqlite::Database::open(":memory:", SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, path));
  sqlite3_backup* backup = sqlite3_backup_init(mem.get(), "main", db.get(), "main");
  if (backup == nullptr) return mem.error(sqlite3_errcode(mem.get()), "cannot copy for migration");
  FS_RETURN_IF_ERROR(mem.treat_as_untrusted());
  int rc = sqlite3_backup_step(backup, -1);
  sqlite3_backup_finish(backup);
  if (rc != SQLITE_DONE) return db.error(rc, "cannot copy for migration");
  FS_RETURN_IF_ERROR(migrate(mem, steps));
  FS_RETURN_IF_ERROR(check_tables(mem, steps, path));
  FS_RETURN_IF_ERROR(check_complete(mem, version, steps, path));
  return mem;
}

}  // namespace flopscope
