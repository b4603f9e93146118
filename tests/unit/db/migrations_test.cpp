// The migration runner: ordered steps, one transaction each, user_version after each, refusals.
#include "db/migrations.h"

#include <gtest/gtest.h>

#include <vector>

#include "db/model/atomic_file.h"
#include "db/run_database.h"
#include "db/run_database_format.h"
#include "db_test_util.h"

namespace flopscope {
namespace {

using sqlite::Database;
using testing::TempDir;

// Each step records its number, so the order in which they ran can be read back.
const SchemaStep kFixture[] = {
    {1, "001_log.sql",
     "CREATE TABLE log (step INTEGER); CREATE TABLE t (a INTEGER); INSERT INTO log VALUES (1);"},
    {2, "002_column.sql",
     "ALTER TABLE t ADD COLUMN b INTEGER NOT NULL DEFAULT 7; INSERT INTO log VALUES (2);"},
    {3, "003_copy.sql", "CREATE TABLE u AS SELECT a, b FROM t; INSERT INTO log VALUES (3);"},
};

Database memory_db() {
  return std::move(Database::open(":memory:", SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, "fixture.db"))
      .value();
}

std::vector<std::int64_t> log_of(Database& db) {
  std::vector<std::int64_t> steps;
  auto stmt = db.prepare("SELECT step FROM log ORDER BY rowid");
  EXPECT_TRUE(stmt.ok());
  while (stmt->step().value()) steps.push_back(stmt->int64(0));
  return steps;
}

std::int64_t version_of(Database& db) {
  return db.query_int("PRAGMA user_version").value();
}

TEST(Migrations, NewDatabaseRunsEveryStepInOrder) {
  Database db = memory_db();
  ASSERT_TRUE(migrate(db, kFixture).ok());
  EXPECT_EQ(version_of(db), 3);
  EXPECT_EQ(log_of(db), (std::vector<std::int64_t>{1, 2, 3}));
}

TEST(Migrations, OlderDatabaseRunsOnlyTheMissingSteps) {
  Database db = memory_db();
  ASSERT_TRUE(migrate(db, std::span(kFixture).first(1)).ok());
  EXPECT_EQ(version_of(db), 1);
  ASSERT_TRUE(db.exec("INSERT INTO t (a) VALUES (42)").ok());

  ASSERT_TRUE(migrate(db, kFixture).ok());
  EXPECT_EQ(version_of(db), 3);
  EXPECT_EQ(log_of(db), (std::vector<std::int64_t>{1, 2, 3}));
  // Step 3 saw the column step 2 added, with its default filled in for the old row.
  EXPECT_EQ(db.query_int("SELECT b FROM u WHERE a = 42").value(), 7);
  // Up to date: nothing runs again.
  ASSERT_TRUE(migrate(db, kFixture).ok());
  EXPECT_EQ(log_of(db).size(), 3u);
}

TEST(Migrations, FailedStepRollsBackToThePreviousVersion) {
  const SchemaStep broken[] = {kFixture[0], {2, "002_broken.sql", "INSERT INTO log VALUES (2); SELEC oops;"}};
  Database db = memory_db();
  Status s = migrate(db, broken);
  ASSERT_FALSE(s.ok());
  EXPECT_TRUE(s.message().starts_with("fixture.db: ")) << s.message();
  EXPECT_NE(s.message().find("002_broken.sql"), std::string::npos) << s.message();
  EXPECT_EQ(version_of(db), 1);
  EXPECT_EQ(log_of(db), (std::vector<std::int64_t>{1}));  // step 2's insert was rolled back
}

TEST(Migrations, MisnumberedStepsAreABug) {
  const SchemaStep gap[] = {kFixture[0], kFixture[2]};
  Database db = memory_db();
  Status s = migrate(db, gap);
  EXPECT_EQ(s.code(), StatusCode::kInternal);
  EXPECT_EQ(version_of(db), 0);
}

TEST(Migrations, NewerDatabaseIsRefused) {
  Database db = memory_db();
  ASSERT_TRUE(db.exec("PRAGMA user_version = 9").ok());
  Status s = migrate(db, kFixture);
  EXPECT_EQ(s.code(), StatusCode::kUnsupported);
  EXPECT_EQ(s.message(),
            "fixture.db: run database schema version 9 is newer than this flopscope supports (3); "
            "upgrade flopscope");
}

TEST(Migrations, ReadingAnOlderRunDatabaseMigratesACopyNotTheFile) {
  // A real run database at the current version, read by a build that knows one more step.
  TempDir dir;
  const std::string path = dir.file("old.db");
  ASSERT_TRUE(testing::write_run_file(path, testing::sample_run()));
  const std::string before = read_file(path).value();
  std::vector<SchemaStep> steps(schema_steps().begin(), schema_steps().end());
  const int next = static_cast<int>(steps.size()) + 1;
  steps.push_back({next, "next.sql", "ALTER TABLE kernel ADD COLUMN extra INTEGER NOT NULL DEFAULT 5;"});

  auto db = open_run_database(path, steps);
  ASSERT_TRUE(db.ok()) << db.status().message();
  EXPECT_EQ(version_of(*db), next);
  EXPECT_EQ(db->query_int("SELECT sum(extra) FROM kernel").value(), 5 * 3);
  EXPECT_EQ(db->path(), path);  // errors still name the user's file
  EXPECT_EQ(read_file(path).value(), before);
  EXPECT_EQ(dir.listing(), std::vector<std::string>{"old.db"});
}

TEST(Migrations, Version1RunDatabaseReadsWithTheCurrentSchema) {
  // A file as flopscope wrote it at schema version 1: only the first step, rows inserted by plain SQL.
  TempDir dir;
  const std::string path = dir.file("v1.db");
  {
    auto db = Database::open(path, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE);
    ASSERT_TRUE(db.ok());
    ASSERT_TRUE(migrate(*db, schema_steps().first(1)).ok());
    ASSERT_TRUE(
        db->exec("PRAGMA application_id = " + std::to_string(kRunDatabaseApplicationId) +
                 "; INSERT INTO run VALUES (1, '0.1.0', 'torch-cpu', 'm.pt', '', 'cpu', 'h', "
                 "'int64[1,8]', 3, 1, 2, 1700000000000000000, 'flopscope profile m.pt'); "
                 "INSERT INTO module VALUES (0, NULL, '', 'Net'); "
                 "INSERT INTO op (id, iteration, sequence, name, thread, start_ns, duration_ns, module_id, "
                 "parent_op_id, depth, input_dims, input_types, concrete_inputs, flops, macs, bytes_read, "
                 "bytes_written, flops_source, flops_note) VALUES (1, 0, 0, 'aten::linear', 7, 10, 20, 0, "
                 "NULL, 0, '[[1,8],[8,8]]', '[\"float32\",\"float32\"]', '[\"\",\"\"]', 128, 64, 1, "
                 "2, 'formula', '')")
            .ok());
  }
  if (schema_steps().size() < 2) GTEST_SKIP() << "only one schema version so far";
  const std::string before = read_file(path).value();
  auto run = read_run_database(path);
  ASSERT_TRUE(run.ok()) << run.status().message();
  EXPECT_EQ(run->info.iterations, 3);
  ASSERT_EQ(run->ops.size(), 1u);
  EXPECT_EQ(run->ops[0].args[1].shape, (std::vector<std::int64_t>{8, 8}));
  EXPECT_EQ(run->ops[0].flops, 128);
  EXPECT_TRUE(run->activations.empty());  // the table version 2 added, empty for an older run
  EXPECT_TRUE(run->discarded.empty());    // and version 5's
  EXPECT_EQ(read_file(path).value(), before);
}

// A kernel row as flopscope wrote it before schema version 4 (28 kernel columns).
std::string v3_kernel(int id, double tensor_ops, double read, double written) {
  return "INSERT INTO kernel VALUES (" + std::to_string(id) +
         ", 'kernel', 'gemm', 0, 7, 0, 100, 1, 1, 1, 1, 1, 1, 0, 0, NULL, NULL, 0, 0, 1, 0, 10, 0, " +
         std::to_string(tensor_ops) + ", " + std::to_string(read) + ", " + std::to_string(written) +
         ", 0, 0);";
}

// Writes a run of `source_kind` at an older schema `version` with the given rows (SQL) and reads it back.
StatusOr<RunData> read_old_run(const std::string& path, std::size_t version, const std::string& source_kind,
                               const std::string& rows) {
  {
    auto db = Database::open(path, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE);
    if (!db.ok()) return db.status();
    FS_RETURN_IF_ERROR(migrate(*db, schema_steps().first(version)));
    FS_RETURN_IF_ERROR(db->exec("PRAGMA application_id = " + std::to_string(kRunDatabaseApplicationId) +
                                "; INSERT INTO run VALUES (1, '0.1.0', '" + source_kind +
                                "', 't', '', 'A100', 'h', '', 1, 0, 0, 0, 'flopscope import t'); "
                                "INSERT INTO module VALUES (0, NULL, '', ''); " +
                                rows + "INSERT INTO run_complete VALUES (1, 1);"));
  }
  return read_run_database(path);
}

TEST(Migrations, Version4MovesNcuTensorInstructionsAndTotalDramOutOfTheWrongColumns) {
  if (schema_steps().size() < 4) GTEST_SKIP() << "no version 4";
  TempDir dir;
  // An Nsight Compute import of version 3: sm__inst_executed_pipe_tensor.sum in tensor_ops, a total-only
  // dram__bytes.sum in the read column (kernel 1); a measured split (kernel 2).
  auto ncu =
      read_old_run(dir.file("ncu.db"), 3, "ncu", v3_kernel(1, 2048, 128, 0) + v3_kernel(2, 0, 1500, 20));
  ASSERT_TRUE(ncu.ok()) << ncu.status().message();
  ASSERT_EQ(ncu->kernels.size(), 2u);
  EXPECT_EQ(ncu->kernels[0].tensor_pipe_inst, 2048);
  EXPECT_EQ(ncu->kernels[0].tensor_ops, 0);
  EXPECT_EQ(ncu->kernels[0].dram_bytes, 128);
  EXPECT_EQ(ncu->kernels[0].dram_bytes_read, 0);  // the split was never measured
  EXPECT_EQ(ncu->kernels[1].dram_bytes, 1520);
  EXPECT_EQ(ncu->kernels[1].dram_bytes_read, 1500);
  EXPECT_EQ(ncu->kernels[1].dram_bytes_written, 20);
  // A CUPTI run's tensor_ops are sm__ops_path_tensor_* operations and its DRAM columns a real split: kept.
  auto cupti = read_old_run(dir.file("cupti.db"), 3, "cupti", v3_kernel(1, 4096, 64, 0));
  ASSERT_TRUE(cupti.ok()) << cupti.status().message();
  EXPECT_EQ(cupti->kernels[0].tensor_ops, 4096);
  EXPECT_EQ(cupti->kernels[0].tensor_pipe_inst, 0);
  EXPECT_EQ(cupti->kernels[0].dram_bytes_read, 64);
  EXPECT_EQ(cupti->kernels[0].dram_bytes, 64);
}

TEST(Migrations, Version14LeavesTheRuntimeCallOfOlderKernelsUnknown) {
  if (schema_steps().size() < 14) GTEST_SKIP() << "no version 14";
  TempDir dir;
  // A version-3 kernel row, migrated through 4..14: no call was stored, so none is made up (an export then
  // writes no recorded launch for it).
  auto run = read_old_run(dir.file("old.db"), 3, "kineto", v3_kernel(1, 0, 0, 0));
  ASSERT_TRUE(run.ok()) << run.status().message();
  ASSERT_EQ(run->kernels.size(), 1u);
  EXPECT_FALSE(run->kernels[0].launch.known());
  EXPECT_EQ(run->kernels[0].launch.duration_ns, -1);
  EXPECT_EQ(run->kernels[0].launch.name, "");
}

TEST(Migrations, Version6GivesOldQualityRowsTheCodeOfTheirText) {
  if (schema_steps().size() < 6) GTEST_SKIP() << "no version 6";
  TempDir dir;
  // Rows as flopscope wrote them before the catalogue: English text, some with a name or number in it.
  auto run = read_old_run(
      dir.file("v5.db"), 5, "kineto",
      "INSERT INTO data_quality VALUES "
      "('ops with ambiguous module attribution', 2, 'error', 'a.b'), "
      "('module paths named by attribute from the weights file w.pt (3 by call order among look-alike "
      "siblings)', 40, 'info', ''), "
      "('recorded by flopscope trace: torch 2.3.0, torch.profiler (Kineto); host clock; analytic FLOPs from "
      "shapes; module paths from named_modules()', 1, 'info', 'python x.py'), "
      "('the program exited with status 3: the run holds what was recorded until then', 1, 'warning', "
      "'python x.py'), "
      "('recorded 2 of the 5 requested iterations', 1, 'info', ''), "
      "('3 Python processes recorded traces; this run holds process 42''s', 2, 'warning', ''), "
      "('companion: a note', 1, 'info', ''), "
      "('clock skew corrected', 1, 'info', '12 ns');");
  ASSERT_TRUE(run.ok()) << run.status().message();
  const std::vector<std::pair<QualityCode, std::string>> want = {
      {QualityCode::ambiguous_module_attribution, "a.b"},
      {QualityCode::paths_from_weights_file, "w.pt (3 by call order among look-alike siblings)"},
      {QualityCode::recorded_by_trace, "torch 2.3.0, torch.profiler (Kineto); python x.py"},
      {QualityCode::program_failed, "the program exited with status 3; python x.py"},
      {QualityCode::iterations_incomplete, "recorded 2 of the 5 requested iterations"},
      {QualityCode::several_processes, "3 Python processes recorded traces; this run holds process 42's"},
      {QualityCode::companion_note, "a note"},
      {QualityCode::legacy, "clock skew corrected: 12 ns"},  // a text no flopscope wrote: kept, no code
  };
  ASSERT_EQ(run->quality.size(), want.size());
  for (std::size_t i = 0; i < want.size(); ++i) {
    EXPECT_EQ(run->quality[i].code, want[i].first) << i;
    EXPECT_EQ(run->quality[i].detail, want[i].second) << i;
  }
  EXPECT_EQ(run->quality[0].severity, Severity::kError);  // the severity stored is kept: gates still exit 2
  EXPECT_EQ(run->quality[1].count, 40);
}

TEST(Migrations, Version10ParamsReadWithAnEmptySketch) {
  if (schema_steps().size() < 11) GTEST_SKIP() << "no version 11";
  // A parameter row as flopscope wrote it before the content sketch (version 10: 11 param columns).
  TempDir dir;
  const std::string path = dir.file("v10.db");
  {
    auto db = Database::open(path, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE);
    ASSERT_TRUE(db.ok());
    ASSERT_TRUE(migrate(*db, schema_steps().first(10)).ok());
    ASSERT_TRUE(
        db->exec("PRAGMA application_id = " + std::to_string(kRunDatabaseApplicationId) +
                 "; INSERT INTO run VALUES (1, '0.1.0', 'torch-cpu', 'm.pt', '', 'cpu', 'h', '', 1, 0, 0, 0, "
                 "'flopscope profile m.pt'); "
                 "INSERT INTO module_node VALUES (0, NULL, '', 0, 'Net'); "
                 "INSERT INTO param VALUES (0, 'w', 0, 'float32', '[2,3]', 6, 24, 2.5, 1.5, 1, 'ab'); "
                 "INSERT INTO run_complete VALUES (1, 1);")
            .ok());
  }
  auto run = read_run_database(path);
  ASSERT_TRUE(run.ok()) << run.status().message();
  ASSERT_EQ(run->params.size(), 1u);
  EXPECT_EQ(run->params[0].name, "w");
  EXPECT_EQ(run->params[0].l2, 2.5);
  EXPECT_EQ(run->params[0].sha256, "ab");
  EXPECT_TRUE(run->params[0].sketch.empty());
  EXPECT_EQ(run->params[0].sum, 0);
}

TEST(SketchColumn, ASketchOfAnotherLengthIsACorruptRow) {
  TempDir dir;
  const std::string path = dir.file("bad_sketch.db");
  ASSERT_TRUE(testing::write_run_file(path, testing::sample_run()));
  {
    auto db = Database::open(path, SQLITE_OPEN_READWRITE);
    ASSERT_TRUE(db.ok());
    ASSERT_TRUE(db->exec("UPDATE param SET sketch = x'0102030405060708' WHERE id = 20").ok());
  }
  auto run = read_run_database(path);
  ASSERT_FALSE(run.ok());
  EXPECT_EQ(run.status().message(), path + ": param 20: a content sketch of 8 bytes (expected 0 or " +
                                        std::to_string(kSketchBuckets * 8) + ")");
}

TEST(Migrations, ShippedStepsAreConsecutive) {
  ASSERT_FALSE(schema_steps().empty());
  for (std::size_t i = 0; i < schema_steps().size(); ++i) EXPECT_EQ(schema_steps()[i].version, int(i) + 1);
  EXPECT_EQ(run_database_schema_version(), static_cast<int>(schema_steps().size()));
}

}  // namespace
}  // namespace flopscope
