// Module paths stored as parent + name (schema 9): split and joined back exactly, one path per module, the
// old whole-path table migrated, and crafted trees (cycles, missing parents, depth) refused.
#include "db/module_names.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "db/migrations.h"
#include "db/model/input_limits.h"
#include "db/run_database.h"
#include "db/run_database_format.h"
#include "db_test_util.h"

namespace flopscope {
namespace {

using sqlite::Database;
using testing::TempDir;

// The schema step that interns module paths, found by its file name.
std::size_t names_step() {
  const auto steps = schema_steps();
  for (std::size_t i = 0; i < steps.size(); ++i)
    if (steps[i].name.find("module_names") != std::string_view::npos) return i;
  return steps.size();
}

// A chain `depth` modules deep under the root, paths "b0", "b0.b1", ...
std::vector<ModuleRecord> chain(int depth) {
  std::vector<ModuleRecord> modules{{0, kNoId, "", "Net"}};
  std::string path;
  for (int d = 0; d < depth; ++d) {
    path += (d == 0 ? "" : ".") + std::string("b") + std::to_string(d);
    modules.push_back({d + 1, d, path, "Block"});
  }
  return modules;
}

RunData run_with(std::vector<ModuleRecord> modules) {
  RunData run = testing::sample_run();
  run.modules = std::move(modules);
  for (auto& o : run.ops) o.module_id = run.modules.back().id;
  for (auto& k : run.kernels) k.module_id = run.modules.back().id;
  for (auto& p : run.params) p.module_id = run.modules.back().id;
  for (auto& a : run.activations) a.module_id = run.modules.back().id;
  for (auto& n : run.graph_nodes) n.module_id = kNoId;
  return run;
}

std::int64_t query(const std::string& path, const std::string& sql) {
  auto db = Database::open(path, SQLITE_OPEN_READONLY);
  EXPECT_TRUE(db.ok());
  auto v = db->query_int(sql);
  EXPECT_TRUE(v.ok()) << v.status().message();
  return v.ok() ? *v : -1;
}

class ModuleDepthLimit {
 public:
  explicit ModuleDepthLimit(int depth) : saved_(input_limits().max_module_depth) {
    input_limits().max_module_depth = depth;
  }
  ~ModuleDepthLimit() { input_limits().max_module_depth = saved_; }

 private:
  int saved_;
};

TEST(ModuleNames, SplitAgainstTheParentPath) {
  EXPECT_EQ(stored_module_name("layers.0.attn", "layers.0").name, "attn");
  EXPECT_TRUE(stored_module_name("layers.0.attn", "layers.0").relative);
  EXPECT_FALSE(stored_module_name("layers", "").relative);  // under the root: the whole path
  EXPECT_FALSE(stored_module_name("layers.01", "layers.0").relative);
  EXPECT_FALSE(stored_module_name("other.x", "layers.0").relative);
  EXPECT_FALSE(stored_module_name("layers.0", "layers.0").relative);
  EXPECT_EQ(stored_module_name("a.", "a").name, "");
  EXPECT_TRUE(stored_module_name("a.", "a").relative);
}

TEST(ModuleNames, DeepChainStoredInLinearTextAndReadBackExactly) {
  ModuleDepthLimit limit(1000);
  TempDir dir;
  std::vector<ModuleRecord> modules = chain(600);
  modules.push_back({1000, 5, "elsewhere.x", "Odd"});              // does not extend its parent's path
  modules.push_back({1001, 7, "b0.b1.b2.b3.b4.b5.b6.", "Empty"});  // an empty last part
  modules.push_back({1002, 999, "lost.parent", "Lost"});           // parent not in the run: kept whole
  const std::string path = dir.file("deep.db");
  ASSERT_TRUE(testing::write_run_file(path, run_with(modules)));
  // Each row holds its own part: linear in depth, not the 600 * 601 / 2 segments whole paths would hold.
  EXPECT_LT(query(path, "SELECT sum(length(name)) FROM module_node"), 600 * 5);
  EXPECT_EQ(query(path, "SELECT count(*) FROM module_node WHERE relative = 1"), 600 - 1 + 1);
  auto run = read_run_database(path);
  ASSERT_TRUE(run.ok()) << run.status().message();
  ASSERT_EQ(run->modules.size(), modules.size());
  for (std::size_t i = 0; i < modules.size(); ++i) testing::expect_equal(run->modules[i], modules[i]);
  // The compatibility view gives SQL users the same paths.
  EXPECT_EQ(query(path, "SELECT count(*) FROM module m JOIN module_node n USING (id)"),
            static_cast<std::int64_t>(modules.size()));
  EXPECT_EQ(query(path, "SELECT length(path) FROM module WHERE id = 600"),
            static_cast<std::int64_t>(modules[600].path.size()));
}

TEST(ModuleNames, TooDeepIsRefusedWithTheLimitFlag) {
  TempDir dir;
  const std::string path = dir.file("deep.db");
  {
    ModuleDepthLimit limit(1000);
    ASSERT_TRUE(testing::write_run_file(path, run_with(chain(300))));
  }
  ModuleDepthLimit limit(299);
  auto run = read_run_database(path);
  ASSERT_FALSE(run.ok());
  EXPECT_EQ(run.status().code(), StatusCode::kUnsupported);  // not "not a run database"
  EXPECT_EQ(run.status().message(),
            path + ": module hierarchy more than 299 levels deep (--max-module-depth raises the limit)");
  ModuleDepthLimit enough(300);
  EXPECT_TRUE(read_run_database(path).ok());
}

TEST(ModuleNames, CraftedTreesAreRefused) {
  TempDir dir;
  const std::string path = dir.file("run.db");
  ASSERT_TRUE(testing::write_run_file(path, run_with(chain(4))));
  auto craft = [&](const std::string& sql) {
    const std::string copy = dir.file("crafted.db");
    std::filesystem::copy_file(path, copy, std::filesystem::copy_options::overwrite_existing);
    auto db = Database::open(copy, SQLITE_OPEN_READWRITE);
    EXPECT_TRUE(db.ok() && db->exec(sql).ok());
    return read_run_database(copy);
  };
  auto cycle = craft("UPDATE module_node SET parent_id = 4 WHERE id = 2");
  ASSERT_FALSE(cycle.ok());
  EXPECT_EQ(cycle.status().code(), StatusCode::kCorrupt);
  EXPECT_NE(cycle.status().message().find("its parents form a cycle"), std::string::npos)
      << cycle.status().message();
  auto self = craft("UPDATE module_node SET parent_id = 3 WHERE id = 3");
  ASSERT_FALSE(self.ok());
  EXPECT_EQ(self.status().code(), StatusCode::kCorrupt);
  auto missing = craft("UPDATE module_node SET parent_id = 77 WHERE id = 3");
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.status().code(), StatusCode::kCorrupt);
  EXPECT_NE(missing.status().message().find("module 77, which is not in the run"), std::string::npos)
      << missing.status().message();
  // The view stops too: rows under a cycle have no path, and the query ends.
  const std::string copy = dir.file("crafted.db");
  EXPECT_FALSE(craft("UPDATE module_node SET parent_id = 4 WHERE id = 2").ok());
  EXPECT_EQ(query(copy, "SELECT count(*) FROM module"), 2);  // the root and b0
}

TEST(ModuleNames, WholePathTablesOfOlderFilesAreMigrated) {
  const std::size_t step = names_step();
  ASSERT_LT(step, schema_steps().size());
  TempDir dir;
  const std::string path = dir.file("old.db");
  const std::vector<ModuleRecord> modules{
      {0, kNoId, "", "Net"},       {1, 0, "layers", "ModuleList"},
      {2, 1, "layers.0", "Block"}, {3, 2, "layers.0.\xc3\xa9.q", "U"},
      {4, 2, "other.x", "Odd"},    {5, 4, "other.x.", "Empty"},
      {6, kNoId, "orphan.a", "X"}, {7, 3, "layers.0.\xc3\xa9.q.r\xff", "Bad"},
      {9, 42, "no.parent", "Lost"}};
  {
    auto db = Database::open(path, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE);
    ASSERT_TRUE(db.ok());
    ASSERT_TRUE(migrate(*db, schema_steps().first(step)).ok());
    std::string sql =
        "PRAGMA application_id = " + std::to_string(kRunDatabaseApplicationId) +
        "; INSERT INTO run VALUES (1, '0.1.0', 'kineto', 't', '', 'cpu', 'h', '', 1, 0, 0, 0, 'x'); "
        "INSERT INTO run_complete VALUES (1, 1);";
    ASSERT_TRUE(db->exec(sql).ok());
    auto insert = db->prepare("INSERT INTO module VALUES (?, ?, ?, ?)");
    ASSERT_TRUE(insert.ok());
    for (const ModuleRecord& m : modules) {
      ASSERT_TRUE(insert->reset().ok());
      ASSERT_TRUE(insert->bind(1, std::int64_t{m.id}).ok());
      ASSERT_TRUE(insert->bind_id(2, m.parent_id).ok());
      ASSERT_TRUE(insert->bind(3, m.path).ok());
      ASSERT_TRUE(insert->bind(4, m.type).ok());
      ASSERT_TRUE(insert->run().ok());
    }
  }
  auto run = read_run_database(path);
  ASSERT_TRUE(run.ok()) << run.status().message();
  ASSERT_EQ(run->modules.size(), modules.size());
  for (std::size_t i = 0; i < modules.size(); ++i) testing::expect_equal(run->modules[i], modules[i]);
  auto db = open_run_database(path, schema_steps());
  ASSERT_TRUE(db.ok());
  EXPECT_EQ(db->query_int("SELECT count(*) FROM module_node WHERE relative = 1").value(), 4);  // 2, 3, 5, 7
}

}  // namespace
}  // namespace flopscope
