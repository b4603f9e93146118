// One diff result, many views: the GUI's module tree and diff table, and the CLI's JSON, Markdown, HTML,
// JUnit and text reports of the same two runs agree on every count, status and verdict.
#include <gtest/gtest.h>

#include <map>
#include <nlohmann/json.hpp>

#include "cli/printers/diff_report.h"
#include "gui/models/diff_table_model.h"
#include "gui/models/module_tree_model.h"
#include "gui/models/roles.h"
#include "tests/unit/gui/qt_environment.h"

namespace flopscope::gui::testing {
namespace {

void expect_views_agree(Variant va, Variant vb, int dormant, int vanished) {
  auto session = fixture_session(va, vb);
  // The CLI computes its own diff from the runs, as `flopscope diff A.db B.db` does.
  RunDiff cli = diff_runs(session->a->data, session->b->data);
  auto json = nlohmann::json::parse(cli::render_diff_json(cli, {}, {}));

  DiffTableModel table;
  table.setSession(session);
  table.setShowUnchanged(true);
  ModuleTreeModel tree;
  tree.setSession(session);

  std::map<std::string, int> gui_counts;
  std::map<std::string, std::pair<std::string, std::string>> gui_rows;  // path -> (status, verdict text)
  for (int r = 0; r < table.rowCount(); ++r) {
    std::string path = table.index(r, DiffTableModel::kModule).data(kPathRole).toString().toStdString();
    std::string status = table.index(r, DiffTableModel::kStatus).data().toString().toStdString();
    std::string text = table.index(r, DiffTableModel::kVerdict).data().toString().toStdString();
    ++gui_counts[status];
    gui_rows[path] = {status, text};
    // The tree shows the same status for the same path.
    QModelIndex t = tree.indexForPath(QString::fromStdString(path));
    ASSERT_TRUE(t.isValid()) << path;
    EXPECT_EQ(t.siblingAtColumn(ModuleTreeModel::kStatus).data().toString().toStdString(), status) << path;
  }
  ASSERT_EQ(json["modules"].size(), gui_rows.size());
  for (const auto& m : json["modules"]) {
    std::string path = m["path"];
    auto it = gui_rows.find(path);
    ASSERT_NE(it, gui_rows.end()) << path;
    EXPECT_EQ(it->second.first, m["status"].get<std::string>()) << path;
    EXPECT_EQ(m["status"], m["verdict"]) << path;
    std::string text = m["verdict"] == "UNCHANGED" ? "" : m["verdict_text"].get<std::string>();
    EXPECT_EQ(it->second.second, text) << path;
  }
  for (int v = 0; v < kVerdictCount; ++v) {
    const std::string name = to_string(static_cast<Verdict>(v));
    EXPECT_EQ(json["summary"]["modules"][name].get<int>(), gui_counts[name]) << name;
    EXPECT_EQ(session->diff.count(static_cast<Verdict>(v)), gui_counts[name]) << name;
  }
  EXPECT_EQ(json["summary"]["modules"]["DORMANT"], dormant);
  EXPECT_EQ(json["summary"]["modules"]["VANISHED"], vanished);
  EXPECT_EQ(session->diff.count(Verdict::kDormant), dormant);
  EXPECT_EQ(session->diff.count(Verdict::kVanished), vanished);
  // Every text report prints the same counts line.
  const std::string counts = cli::module_counts_text(cli);
  EXPECT_NE(cli::render_diff_markdown(cli, {}, {}).find(counts), std::string::npos);
  EXPECT_NE(cli::render_diff_table(cli, {}, {}).find(counts), std::string::npos);
  EXPECT_NE(cli::render_diff_html(cli, {}, {}, "").find(counts), std::string::npos);
  EXPECT_NE(cli::render_diff_junit(cli, {}).find("name=\"modules.DORMANT\" value=\"" +
                                                 std::to_string(dormant) + "\""),
            std::string::npos);
}

TEST(DiffViewsAgree, V1AgainstV2) {
  expect_views_agree(Variant::kV1, Variant::kV2, 0, 2);
}
TEST(DiffViewsAgree, V1AgainstV2z) {
  expect_views_agree(Variant::kV1, Variant::kV2z, 2, 0);
}

}  // namespace
}  // namespace flopscope::gui::testing
