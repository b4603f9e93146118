// The data-quality catalogue: codes are unique stable ids, lookups agree with the table, docs/data-quality.md
// lists exactly the catalogue, and rows keep their code through the run database (also for codes this build
// does not know).
#include "db/model/quality_catalogue.h"

#include <gtest/gtest.h>

#include <regex>
#include <set>

#include "db/model/atomic_file.h"
#include "db/run_database.h"
#include "db/sqlite/sqlite.h"
#include "db_test_util.h"

namespace flopscope {
namespace {

using testing::TempDir;

TEST(QualityCatalogue, CodesAreUniqueSnakeCaseIdsWithOneLineTexts) {
  const std::regex snake("[a-z][a-z0-9]*(_[a-z0-9]+)*");
  std::set<std::string_view> ids, texts;
  ASSERT_GT(quality_catalogue().size(), 60u);
  for (std::size_t i = 0; i < quality_catalogue().size(); ++i) {
    const QualityKind& k = quality_catalogue()[i];
    EXPECT_EQ(static_cast<std::size_t>(k.code), i) << k.id;
    EXPECT_TRUE(std::regex_match(std::string(k.id), snake)) << k.id;
    EXPECT_TRUE(ids.insert(k.id).second) << "duplicate code " << k.id;
    EXPECT_TRUE(texts.insert(k.text).second) << "two codes share the text: " << k.text;
    EXPECT_FALSE(k.text.empty()) << k.id;
    EXPECT_EQ(k.text.find('\n'), std::string_view::npos) << k.id;
    EXPECT_EQ(quality_code_from_id(k.id), k.code) << k.id;
    EXPECT_EQ(&quality_kind(k.code), &k);
  }
  EXPECT_EQ(quality_code_from_id("no_such_code"), std::nullopt);
  EXPECT_EQ(quality_code_from_id(""), std::nullopt);
}

TEST(QualityCatalogue, IssueTakesCodeTextAndSeverityFromTheCatalogue) {
  QualityIssue q(QualityCode::ambiguous_module_attribution, 3, "a.b\nc.d");
  EXPECT_EQ(q.id(), "ambiguous_module_attribution");
  EXPECT_EQ(q.text(), "ops with ambiguous module attribution");
  EXPECT_EQ(q.severity, Severity::kError);  // diff gates exit 2 on it
  EXPECT_EQ(QualityIssue(QualityCode::reference_blas, 1).severity, Severity::kWarning);
  EXPECT_EQ(QualityIssue(QualityCode::blas_backend, 1).severity, Severity::kInfo);
}

// The table docs/data-quality.md must hold, built from the catalogue.
std::string docs_table() {
  std::string out = "| code | severity | what |\n|---|---|---|\n";
  for (const QualityKind& k : quality_catalogue()) {
    std::string text;
    for (char c : k.text) text += c == '|' ? std::string("\\|") : std::string(1, c);
    out += "| `" + std::string(k.id) + "` | " + to_string(k.severity) + " | " + text + " |\n";
  }
  return out;
}

TEST(QualityCatalogue, DocsListEveryCode) {
  const std::string doc = read_file(std::string(FLOPSCOPE_SOURCE_DIR) + "/docs/data-quality.md").value();
  // The table is every line from its header to the end of the file.
  const std::size_t start = doc.find("| code | severity | what |");
  ASSERT_NE(start, std::string::npos) << "docs/data-quality.md has no code table";
  EXPECT_EQ(doc.substr(start), docs_table()) << "docs/data-quality.md is stale; its table should read:\n"
                                             << docs_table();
}

TEST(QualityCatalogue, RunDatabaseStoresTheCodeAndTheText) {
  TempDir dir;
  const std::string path = dir.file("run.db");
  RunData run = testing::sample_run();
  ASSERT_TRUE(testing::write_run_file(path, run));
  auto db = sqlite::Database::open(path, SQLITE_OPEN_READONLY);
  ASSERT_TRUE(db.ok());
  auto stmt = db->prepare("SELECT code, what FROM data_quality ORDER BY rowid");
  ASSERT_TRUE(stmt.ok());
  for (const QualityIssue& q : run.quality) {
    ASSERT_TRUE(stmt->step().value());
    EXPECT_EQ(stmt->str(0), q.id());
    EXPECT_EQ(stmt->str(1), q.text());
  }
  EXPECT_FALSE(stmt->step().value());
}

TEST(QualityCatalogue, UnknownCodeReadsAsLegacyWithItsText) {
  // A row from a build that knows a kind this one does not: nothing is lost, the severity is kept.
  TempDir dir;
  const std::string path = dir.file("run.db");
  RunData run = testing::sample_run();
  run.quality.clear();
  ASSERT_TRUE(testing::write_run_file(path, run));
  {
    auto db = sqlite::Database::open(path, SQLITE_OPEN_READWRITE);
    ASSERT_TRUE(db.ok());
    ASSERT_TRUE(db->exec("INSERT INTO data_quality (code, what, count, severity, detail) VALUES "
                         "('from_a_newer_build', 'a new kind of problem', 4, 'error', 'x.y'), "
                         "('legacy', 'an old text', 1, 'warning', '')")
                    .ok());
  }
  auto back = read_run_database(path);
  ASSERT_TRUE(back.ok()) << back.status().message();
  ASSERT_EQ(back->quality.size(), 2u);
  EXPECT_EQ(back->quality[0].code, QualityCode::legacy);
  EXPECT_EQ(back->quality[0].count, 4);
  EXPECT_EQ(back->quality[0].severity, Severity::kError);
  EXPECT_EQ(back->quality[0].detail, "a new kind of problem: x.y");
  EXPECT_EQ(back->quality[1].detail, "an old text");
  EXPECT_EQ(back->quality[1].severity, Severity::kWarning);
}

}  // namespace
}  // namespace flopscope
