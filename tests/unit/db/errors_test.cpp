// Refusals and bad input: each gives one clear message naming the file, never a crash or a stray file.
#include <gtest/gtest.h>
#include <sqlite3.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>

#include "db/model/atomic_file.h"
#include "db/run_database.h"
#include "db_test_util.h"

namespace flopscope {
namespace {

using testing::TempDir;
namespace fs = std::filesystem;

void write_bytes(const std::string& path, const std::string& bytes) {
  std::ofstream(path, std::ios::binary) << bytes;
}

// Runs SQL on a file with the plain SQLite API, as a user or another tool would.
void run_sql(const std::string& path, const std::string& sql) {
  sqlite3* db = nullptr;
  ASSERT_EQ(sqlite3_open(path.c_str(), &db), SQLITE_OK);
  char* err = nullptr;
  int rc = sqlite3_exec(db, sql.c_str(), nullptr, nullptr, &err);
  std::string msg = err ? err : "";
  sqlite3_free(err);
  sqlite3_close(db);
  ASSERT_EQ(rc, SQLITE_OK) << msg;
}

TEST(RunDatabaseErrors, RefusesExistingFileWithoutOverwrite) {
  TempDir dir;
  const std::string path = dir.file("run.db");
  write_bytes(path, "keep me");
  auto sink = create_run_database(path, false);
  ASSERT_FALSE(sink.ok());
  EXPECT_EQ(sink.status().code(), StatusCode::kAlreadyExists);
  EXPECT_NE(sink.status().message().find(path), std::string::npos);
  EXPECT_NE(sink.status().message().find("--force"), std::string::npos);
  EXPECT_EQ(read_file(path).value(), "keep me");
  EXPECT_EQ(dir.listing(), std::vector<std::string>{"run.db"});
}

TEST(RunDatabaseErrors, OverwriteReplacesExistingFile) {
  TempDir dir;
  const std::string path = dir.file("run.db");
  write_bytes(path, "old");
  ASSERT_TRUE(testing::write_run_file(path, testing::sample_run()));
  auto back = read_run_database(path);
  ASSERT_TRUE(back.ok()) << back.status().message();
  EXPECT_EQ(back->kernels.size(), 3u);
  EXPECT_EQ(dir.listing(), std::vector<std::string>{"run.db"});
}

TEST(RunDatabaseErrors, MissingDirectoryIsRefusedAtOnce) {
  TempDir dir;
  auto sink = create_run_database(dir.file("no/such/dir/run.db"), false);
  ASSERT_FALSE(sink.ok());
  EXPECT_NE(sink.status().message().find("does not exist"), std::string::npos) << sink.status().message();
}

TEST(RunDatabaseErrors, UnwritableDirectoryIsRefusedAtOnce) {
  if (::geteuid() == 0) GTEST_SKIP() << "root can write anywhere";
  TempDir dir;
  fs::create_directory(dir.path() / "ro");
  ::chmod((dir.path() / "ro").c_str(), 0555);
  auto sink = create_run_database(dir.file("ro/run.db"), false);
  ::chmod((dir.path() / "ro").c_str(), 0755);
  ASSERT_FALSE(sink.ok());
  EXPECT_NE(sink.status().message().find("not writable"), std::string::npos) << sink.status().message();
}

TEST(RunDatabaseErrors, NoFileLeftWithoutFinish) {
  TempDir dir;
  const std::string path = dir.file("run.db");
  {
    auto sink = create_run_database(path, false);
    ASSERT_TRUE(sink.ok());
    RunData run = testing::sample_run();
    ASSERT_TRUE((*sink)->begin(run.info).ok());
    ASSERT_TRUE((*sink)->add_kernels(run.kernels).ok());
    EXPECT_EQ(dir.listing().size(), 1u);  // the temporary file exists while writing...
    EXPECT_NE(dir.listing()[0], "run.db");
  }
  EXPECT_TRUE(dir.listing().empty());  // ...and is gone with the sink
}

TEST(RunDatabaseErrors, FailedWriteLeavesNoFile) {
  TempDir dir;
  const std::string path = dir.file("run.db");
  auto sink = create_run_database(path, false);
  ASSERT_TRUE(sink.ok());
  ASSERT_TRUE((*sink)->begin({}).ok());
  std::vector<KernelRecord> dup(2);
  dup[0].id = dup[1].id = 7;
  Status s = (*sink)->add_kernels(dup);
  ASSERT_FALSE(s.ok());
  EXPECT_TRUE(s.message().starts_with(path + ": ")) << s.message();  // names the target, not the temp file
  EXPECT_NE(s.message().find("UNIQUE"), std::string::npos) << s.message();
  // A sink that lost a row refuses to finish: no incomplete run appears under the target name.
  EXPECT_EQ((*sink)->add_modules(testing::sample_run().modules).message(), s.message());
  EXPECT_EQ((*sink)->finish().message(), s.message());
  EXPECT_FALSE(fs::exists(path));
  sink->reset();
  EXPECT_TRUE(dir.listing().empty());
}

TEST(RunDatabaseErrors, FinishWithoutBeginIsAnError) {
  TempDir dir;
  auto sink = create_run_database(dir.file("run.db"), false);
  ASSERT_TRUE(sink.ok());
  EXPECT_FALSE((*sink)->finish().ok());
  sink->reset();
  EXPECT_TRUE(dir.listing().empty());
}

TEST(RunDatabaseErrors, MissingFile) {
  TempDir dir;
  auto r = read_run_database(dir.file("nope.db"));
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), StatusCode::kNotFound);
  EXPECT_EQ(r.status().message(), dir.file("nope.db") + ": no such file");
}

TEST(RunDatabaseErrors, NotSqlite) {
  TempDir dir;
  for (const std::string& content : {std::string(), std::string("hello"), std::string(5000, 'x')}) {
    const std::string path = dir.file("text.db");
    write_bytes(path, content);
    auto r = read_run_database(path);
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.status().message(), path + ": not a SQLite database");
    EXPECT_FALSE(looks_like_sqlite(path));
  }
}

TEST(RunDatabaseErrors, Directory) {
  TempDir dir;
  auto r = read_run_database(dir.path().string());
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("is a directory"), std::string::npos);
}

TEST(RunDatabaseErrors, SqliteButNotRunDatabase) {
  TempDir dir;
  const std::string path = dir.file("other.db");
  run_sql(path, "CREATE TABLE t (x INTEGER); INSERT INTO t VALUES (1);");
  EXPECT_TRUE(looks_like_sqlite(path));
  auto r = read_run_database(path);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().message(), path + ": not a flopscope run database");
}

TEST(RunDatabaseErrors, OtherApplicationsRunTable) {
  TempDir dir;
  const std::string path = dir.file("other.db");
  run_sql(path, "CREATE TABLE run (x); PRAGMA application_id = 1234; PRAGMA user_version = 1;");
  auto r = read_run_database(path);
  ASSERT_FALSE(r.ok());
  EXPECT_TRUE(r.status().message().starts_with(path + ": not a flopscope run database"))
      << r.status().message();
}

TEST(RunDatabaseErrors, NewerSchemaIsRefused) {
  TempDir dir;
  const std::string path = dir.file("run.db");
  ASSERT_TRUE(testing::write_run_file(path, testing::sample_run()));
  run_sql(path, "PRAGMA user_version = 99");
  auto r = read_run_database(path);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), StatusCode::kUnsupported);
  EXPECT_EQ(r.status().message(),
            path + ": run database schema version 99 is newer than this flopscope supports (" +
                std::to_string(run_database_schema_version()) + "); upgrade flopscope");
}

TEST(RunDatabaseErrors, TruncatedFileIsCorrupt) {
  TempDir dir;
  const std::string path = dir.file("run.db");
  ASSERT_TRUE(testing::write_run_file(path, testing::sample_run()));
  const auto size = fs::file_size(path);
  ASSERT_GT(size, 8192u);
  for (std::uintmax_t keep :
       {size - 1, size - 4096, size / 2, std::uintmax_t{4096}, std::uintmax_t{150}, std::uintmax_t{50}}) {
    SCOPED_TRACE(keep);
    const std::string cut = dir.file("cut.db");
    fs::copy_file(path, cut, fs::copy_options::overwrite_existing);
    fs::resize_file(cut, keep);
    auto r = read_run_database(cut);
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.status().code(), StatusCode::kCorrupt) << r.status().message();
    EXPECT_TRUE(r.status().message().starts_with(cut + ": ")) << r.status().message();
    EXPECT_NE(r.status().message().find("truncated"), std::string::npos) << r.status().message();
  }
}

TEST(RunDatabaseErrors, OverwrittenPagesAreCorruptNotACrash) {
  // Garbage over the table pages (the header stays intact): SQLite's own checks must surface as Corrupt.
  TempDir dir;
  const std::string path = dir.file("run.db");
  ASSERT_TRUE(testing::write_run_file(path, testing::sample_run()));
  const auto size = fs::file_size(path);
  std::string bytes = read_file(path).value();
  for (std::size_t i = 100; i < size; ++i) bytes[i] = static_cast<char>((i * 131) & 0xff);
  const std::string bad = dir.file("bad.db");
  write_bytes(bad, bytes);
  auto r = read_run_database(bad);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), StatusCode::kCorrupt) << r.status().message();
  EXPECT_TRUE(r.status().message().starts_with(bad + ": ")) << r.status().message();
}

TEST(RunDatabaseErrors, DamagedBytesAnywhereNeverCrash) {
  // Overwrite one run of bytes at a time across the whole file: each read must either succeed or return an
  // error naming the file (this test fails by crashing, hanging or a message without the file name).
  TempDir dir;
  const std::string path = dir.file("run.db");
  ASSERT_TRUE(testing::write_run_file(path, testing::sample_run()));
  const std::string good = read_file(path).value();
  const std::string bad = dir.file("bad.db");
  int failures = 0;
  for (std::size_t at = 0; at < good.size(); at += 173) {
    std::string bytes = good;
    for (std::size_t i = at; i < std::min(at + 8, bytes.size()); ++i)
      bytes[i] = static_cast<char>(bytes[i] ^ 0x5a);
    write_bytes(bad, bytes);
    auto r = read_run_database(bad);
    if (!r.ok()) {
      ++failures;
      EXPECT_TRUE(r.status().message().starts_with(bad + ": ")) << at << ": " << r.status().message();
    }
  }
  EXPECT_GT(failures, 0);
}

TEST(RunDatabaseErrors, BadJsonInARowIsCorrupt) {
  TempDir dir;
  const std::string path = dir.file("run.db");
  ASSERT_TRUE(testing::write_run_file(path, testing::sample_run()));
  run_sql(path, "UPDATE op SET input_dims = '[[1,2' WHERE id = 10");
  auto r = read_run_database(path);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), StatusCode::kCorrupt);
  EXPECT_TRUE(r.status().message().starts_with(path + ": op 10: ")) << r.status().message();
}

TEST(RunDatabaseErrors, MissingRunRowIsCorrupt) {
  TempDir dir;
  const std::string path = dir.file("run.db");
  ASSERT_TRUE(testing::write_run_file(path, testing::sample_run()));
  run_sql(path, "DELETE FROM run");
  auto r = read_run_database(path);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), StatusCode::kCorrupt);
  EXPECT_EQ(r.status().message(), path + ": run database has no run row (an incomplete write?)");
}

TEST(RunDatabaseErrors, ReadingDoesNotModifyTheFile) {
  TempDir dir;
  const std::string path = dir.file("run.db");
  ASSERT_TRUE(testing::write_run_file(path, testing::sample_run()));
  const std::string before = read_file(path).value();
  ASSERT_TRUE(read_run_database(path).ok());
  EXPECT_EQ(read_file(path).value(), before);
  EXPECT_EQ(dir.listing(), std::vector<std::string>{"run.db"});
}

}  // namespace
}  // namespace flopscope
