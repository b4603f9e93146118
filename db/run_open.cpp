// Recognising and opening run databases: header checks before SQLite, then table and version checks.
#include <array>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>

#include "db/migrations.h"
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

bool has_magic(const unsigned char* p, std::size_t n) { return n >= 16 && std::memcmp(p, kMagic, 16) == 0; }

Status not_run_database(const std::string& path, const std::string& why) {
  return InvalidArgument(path + ": not a flopscope run database" + (why.empty() ? "" : " (" + why + ")"));
}

}  // namespace

bool looks_like_sqlite(const std::string& path) {
  unsigned char buf[16];
  return has_magic(buf, read_prefix(path, buf, sizeof buf));
}

Status check_sqlite_file(const std::string& path) {
  std::error_code ec;
  fs::file_status st = fs::status(path, ec);
  if (!fs::exists(st)) return NotFound(path + ": no such file");
  if (fs::is_directory(st)) return InvalidArgument(path + ": is a directory, not a run database");
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

StatusOr<sqlite::Database> open_run_database(const std::string& path, std::span<const SchemaStep> steps) {
  FS_RETURN_IF_ERROR(check_sqlite_file(path));
  FS_ASSIGN_OR_RETURN(sqlite::Database db, sqlite::Database::open(path, SQLITE_OPEN_READONLY));
  FS_ASSIGN_OR_RETURN(std::int64_t has_run,
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
  if (version == latest) return db;

  // Older: migrate a copy in memory.
  FS_ASSIGN_OR_RETURN(sqlite::Database mem,
                      sqlite::Database::open(":memory:", SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, path));
  sqlite3_backup* backup = sqlite3_backup_init(mem.get(), "main", db.get(), "main");
  if (backup == nullptr) return mem.error(sqlite3_errcode(mem.get()), "cannot copy for migration");
  int rc = sqlite3_backup_step(backup, -1);
  sqlite3_backup_finish(backup);
  if (rc != SQLITE_DONE) return db.error(rc, "cannot copy for migration");
  FS_RETURN_IF_ERROR(migrate(mem, steps));
  return mem;
}

}  // namespace flopscope
