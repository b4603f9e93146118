// The Roofline tab draws what `flopscope roofline` writes: the same points (graphs/roofline_plot) in the
// same picture (graphs/roofline_svg), byte for byte, with a table of the points that selects modules.
#include "gui/views/roofline_page.h"

#include <gtest/gtest.h>

#include <QComboBox>
#include <QFile>
#include <QProcess>
#include <QSignalSpy>
#include <QStyleOptionViewItem>
#include <QTableWidget>

#include "gui/models/roles.h"
#include "gui/models/run_loader.h"
#include "gui/views/elide_delegate.h"
#include "gui/views/main_window.h"
#include "tests/unit/gui/qt_environment.h"

namespace flopscope::gui::testing {
namespace {

TEST(RooflinePage, SamePictureAsTheCli) {
#ifndef FLOPSCOPE_CLI
  GTEST_SKIP() << "the flopscope CLI is not built";
#else
  const QString dir = output_dir(QStringLiteral("roofline_page"));
  write_database(sonnet_run({Variant::kV1}), (dir + QStringLiteral("/v1.db")).toStdString());
  QProcess cli;
  cli.setWorkingDirectory(dir);
  cli.start(QStringLiteral(FLOPSCOPE_CLI),
            {QStringLiteral("roofline"), QStringLiteral("v1.db"), QStringLiteral("-o"),
             QStringLiteral("cli.svg"), QStringLiteral("--force")});
  ASSERT_TRUE(cli.waitForFinished(60000));
  ASSERT_EQ(cli.exitCode(), 0) << cli.readAllStandardError().toStdString();
  QFile file(dir + QStringLiteral("/cli.svg"));
  ASSERT_TRUE(file.open(QIODevice::ReadOnly));
  const QByteArray expected = file.readAll();

  auto session = load_session({dir + QStringLiteral("/v1.db")});
  ASSERT_TRUE(session.ok()) << session.status().message();
  MainWindow w;
  w.setSession(*session);
  ASSERT_TRUE(w.showView(QStringLiteral("roofline")));
  RooflinePage* page = w.rooflinePage();
  ASSERT_FALSE(page->plot().points.empty());
  EXPECT_EQ(page->svg(), expected);
  ASSERT_EQ(page->table()->rowCount(), static_cast<int>(page->plot().points.size()));
  // A row selects its module everywhere.
  QSignalSpy spy(page, &RooflinePage::moduleSelected);
  page->table()->selectRow(0);
  ASSERT_EQ(spy.count(), 1);
  EXPECT_EQ(spy.at(0).at(0).toString(), QString::fromStdString(page->plot().points[0].path));
#endif
}

// In diff mode the page shows run A, or run B when chosen: the points of that run.
TEST(RooflinePage, DiffShowsEitherRun) {
  auto session = fixture_session(Variant::kV1, Variant::kV2);
  RooflinePage page;
  page.setSession(session);
  auto paths = [&] {
    QStringList out;
    for (const auto& p : page.plot().points) out << QString::fromStdString(p.path);
    return out;
  };
  EXPECT_TRUE(paths().contains(QStringLiteral("layers.0.attn.position_adaptive_bias")));
  auto* run = page.findChild<QComboBox*>();
  ASSERT_TRUE(run);
  EXPECT_FALSE(run->isHidden());
  run->setCurrentIndex(1);
  EXPECT_FALSE(paths().contains(QStringLiteral("layers.0.attn.position_adaptive_bias")));  // vanished in B
  EXPECT_FALSE(paths().isEmpty());
}

// The module column cuts names in the middle and keeps what tells rows apart: two Kineto paths that differ
// only in their layer number stay different at any width, where Qt's ElideLeft left
// "...BertSdpaSelfAttention.Linear_0" on both rows.
TEST(RooflinePage, ModuleNamesKeepTheirLayerNumbers) {
  RooflinePage page;
  page.setSession(fixture_session(Variant::kV1));
  ASSERT_NE(dynamic_cast<MiddleElideDelegate*>(page.table()->itemDelegateForColumn(0)), nullptr);
  // The column is sized for the whole names (up to 260 px), not for their cuts.
  int longest = 0;
  for (const auto& p : page.plot().points)
    longest =
        std::max(longest, page.table()->fontMetrics().horizontalAdvance(QString::fromStdString(p.path)));
  EXPECT_GE(page.table()->columnWidth(0), std::min(longest, 260));

  QTableWidget table(2, 1);
  const QString a =
      QStringLiteral("BertModel.BertEncoder.BertLayer_0.BertAttention.BertSdpaSelfAttention.Linear_0");
  const QString b =
      QStringLiteral("BertModel.BertEncoder.BertLayer_1.BertAttention.BertSdpaSelfAttention.Linear_0");
  table.setItem(0, 0, new QTableWidgetItem(a));
  table.setItem(1, 0, new QTableWidgetItem(b));
  MiddleElideDelegate delegate;
  for (int width : {160, 220, 300}) {
    QStringList shown;
    for (int row : {0, 1}) {
      QStyleOptionViewItem option;
      option.initFrom(&table);
      option.rect = QRect(0, 0, width, 20);
      delegate.initStyleOption(&option, table.model()->index(row, 0));
      EXPECT_LE(option.fontMetrics.horizontalAdvance(option.text), width) << option.text.toStdString();
      EXPECT_NE(option.text, row == 0 ? a : b) << "cut at " << width << " px";
      shown << option.text;
    }
    EXPECT_NE(shown[0], shown[1]) << shown[0].toStdString();
    EXPECT_TRUE(shown[0].contains(QStringLiteral("yer_0"))) << shown[0].toStdString();
    EXPECT_TRUE(shown[1].contains(QStringLiteral("yer_1"))) << shown[1].toStdString();
  }
}

}  // namespace
}  // namespace flopscope::gui::testing
