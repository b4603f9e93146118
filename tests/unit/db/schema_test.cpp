// The schema a user sees: the tables docs/schema.md documents exist, and every column carries a comment.
#include <gtest/gtest.h>

#include <cstdio>
#include <regex>
#include <set>
#include <sstream>

#include "db/model/atomic_file.h"
#include "db/run_database.h"
#include "db/schema_steps.h"
#include "db/sqlite/sqlite.h"
#include "db_test_util.h"

namespace flopscope {
namespace {

using testing::TempDir;

std::set<std::string> tables_in(const std::string& path) {
  auto db = sqlite::Database::open(path, SQLITE_OPEN_READONLY);
  EXPECT_TRUE(db.ok());
  std::set<std::string> names;
  auto stmt = db->prepare("SELECT name FROM sqlite_master WHERE type = 'table'");
  while (stmt->step().value()) names.insert(stmt->str(0));
  return names;
}

// Tables docs/schema.md documents: its "### `name`" headings.
std::set<std::string> documented_tables() {
  std::string doc = read_file(std::string(FLOPSCOPE_SOURCE_DIR) + "/docs/schema.md").value();
  std::set<std::string> names;
  std::regex heading("^### `([a-z_]+)`", std::regex::multiline);
  for (auto it = std::sregex_iterator(doc.begin(), doc.end(), heading); it != std::sregex_iterator(); ++it) {
    names.insert((*it)[1]);
  }
  return names;
}

TEST(Schema, DocumentedTablesAreTheTablesOfARun) {
  TempDir dir;
  const std::string path = dir.file("run.db");
  ASSERT_TRUE(testing::write_run_file(path, testing::sample_run()));
  const std::set<std::string> expected = {"run",
                                          "module_node",
                                          "op",
                                          "kernel",
                                          "param",
                                          "graph_node",
                                          "graph_edge",
                                          "data_quality",
                                          "activation",
                                          "run_complete",
                                          "discarded_op",
                                          "aggregate_iteration",
                                          "module_aggregate",
                                          "op_aggregate",
                                          "summary_run",
                                          "summary_module",
                                          "summary_op",
                                          "summary_gap",
                                          "summary_timeline",
                                          "iteration_process",
                                          "output_tensor",
                                          "host_event",
                                          "trace_device_properties",
                                          "memory_event"};
  EXPECT_EQ(tables_in(path), expected);
  EXPECT_EQ(documented_tables(), expected);
  // Whole module paths for SQL users: the view of version 9 (docs/schema.md names it with module_node).
  auto db = sqlite::Database::open(path, SQLITE_OPEN_READONLY);
  ASSERT_TRUE(db.ok());
  EXPECT_EQ(
      db->query_int("SELECT count(*) FROM sqlite_master WHERE type = 'view' AND name = 'module'").value(), 1);
}

TEST(Schema, JsonColumnsAreValidJsonForSqlQueries) {
  TempDir dir;
  const std::string path = dir.file("run.db");
  ASSERT_TRUE(testing::write_run_file(path, testing::sample_run()));
  auto db = sqlite::Database::open(path, SQLITE_OPEN_READONLY);
  ASSERT_TRUE(db.ok());
  EXPECT_EQ(
      db->query_int("SELECT count(*) FROM op WHERE json_valid(input_dims) AND json_valid(input_types) AND "
                    "json_valid(concrete_inputs)")
          .value(),
      3);
  EXPECT_EQ(db->query_int("SELECT count(*) FROM param WHERE json_valid(shape)").value(), 2);
  // A user can query arguments the way Kineto traces are queried: the first input's last dimension.
  EXPECT_EQ(db->query_int("SELECT json_extract(input_dims, '$[0][2]') FROM op WHERE id = 10").value(), 64);
}

#ifdef FLOPSCOPE_SQLITE3_CLI
TEST(Schema, SqliteShellShowsTheDocumentedTablesWithComments) {
  TempDir dir;
  const std::string path = dir.file("run.db");
  ASSERT_TRUE(testing::write_run_file(path, testing::sample_run()));
  std::string out;
  std::FILE* p = ::popen((std::string(FLOPSCOPE_SQLITE3_CLI) + " '" + path + "' .schema").c_str(), "r");
  ASSERT_NE(p, nullptr);
  char buf[4096];
  for (std::size_t n; (n = std::fread(buf, 1, sizeof buf, p)) > 0;) out.append(buf, n);
  ASSERT_EQ(::pclose(p), 0);
  for (const std::string& table : documented_tables()) {
    EXPECT_NE(out.find("CREATE TABLE " + table + " ("), std::string::npos) << table;
  }
  EXPECT_NE(out.find("-- start, nanoseconds from the run's start"), std::string::npos);  // comments are kept
  EXPECT_NE(out.find("CREATE INDEX kernel_by_op"), std::string::npos);
}
#endif

TEST(Schema, EveryColumnHasAComment) {
  // Inside CREATE TABLE ( ... ), every line that defines a column ends in a "--" comment.
  for (const SchemaStep& step : schema_steps()) {
    std::istringstream in{std::string(step.sql)};
    bool in_table = false;
    int columns = 0;
    for (std::string line; std::getline(in, line);) {
      if (line.starts_with("CREATE TABLE")) {
        in_table = true;
        continue;
      }
      if (in_table && line.starts_with(")")) {
        in_table = false;
        continue;
      }
      if (!in_table || line.find_first_not_of(' ') == std::string::npos) continue;
      ++columns;
      EXPECT_NE(line.find("--"), std::string::npos) << step.name << ": column without a comment: " << line;
    }
    if (step.version == 1) {
      EXPECT_GT(columns, 80);
    }
  }
}

}  // namespace
}  // namespace flopscope
