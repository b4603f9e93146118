// Opening bad files: a clear message naming the file, and the window keeps working.
#include <gtest/gtest.h>

#include <QFile>
#include <QSignalSpy>
#include <QTest>

#include "gui/models/run_loader.h"
#include "gui/views/main_window.h"
#include "tests/unit/gui/qt_environment.h"

namespace flopscope::gui::testing {
namespace {

void write_bytes(const QString& path, const QByteArray& bytes) {
  QFile f(path);
  ASSERT_TRUE(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
  f.write(bytes);
}

// A valid database whose header says it was written by a future schema (PRAGMA user_version, offset 60).
QString future_database(const QString& dir) {
  QString path = dir + QStringLiteral("/future.db");
  write_database(sonnet_run({}), path.toStdString());
  QFile f(path);
  EXPECT_TRUE(f.open(QIODevice::ReadWrite));
  f.seek(60);
  f.write(QByteArray("\x00\x00\x03\xe7", 4));  // 999
  return path;
}

TEST(BadInput, LoaderReportsEachProblemWithTheFileName) {
  const QString dir = output_dir(QStringLiteral("bad"));
  write_bytes(dir + QStringLiteral("/garbage.db"), QByteArray(4096, 'x'));
  QByteArray truncated(100, '\0');
  truncated.replace(0, 16, "SQLite format 3\0");
  write_bytes(dir + QStringLiteral("/truncated.db"), truncated);
  const QString future = future_database(dir);
  for (const QString& name : {QStringLiteral("missing.db"), QStringLiteral("garbage.db"),
                              QStringLiteral("truncated.db"), QStringLiteral("future.db")}) {
    auto r = load_session({dir + QLatin1Char('/') + name});
    ASSERT_FALSE(r.ok()) << name.toStdString();
    EXPECT_NE(r.status().message().find(name.toStdString()), std::string::npos) << r.status().message();
  }
  auto r = load_session({future});
  EXPECT_NE(r.status().message().find("999"), std::string::npos) << r.status().message();
}

TEST(BadInput, WindowShowsTheErrorAndThenOpensAGoodRun) {
  const QString dir = output_dir(QStringLiteral("bad-window"));
  write_bytes(dir + QStringLiteral("/corrupt.db"), QByteArray(2048, 'z'));
  const QString good = dir + QStringLiteral("/good.db");
  write_database(sonnet_run({}), good.toStdString());
  MainWindow w;
  w.show();
  QSignalSpy errors(&w, &MainWindow::errorShown);
  w.openFiles({dir + QStringLiteral("/corrupt.db")});
  ASSERT_TRUE(errors.wait(10000));
  EXPECT_TRUE(w.lastError().contains(QStringLiteral("corrupt.db")));
  EXPECT_EQ(w.session(), nullptr);
  QSignalSpy shown(&w, &MainWindow::sessionShown);
  w.openFiles({good});
  ASSERT_TRUE(shown.wait(10000));
  ASSERT_NE(w.session(), nullptr);
  EXPECT_EQ(w.session()->a->path, good);
}

TEST(BadInput, CancelDropsTheResult) {
  const QString dir = output_dir(QStringLiteral("cancel"));
  const QString path = dir + QStringLiteral("/run.db");
  write_database(large_run(200000), path.toStdString());
  RunLoader loader;
  QSignalSpy loaded(&loader, &RunLoader::loaded);
  QSignalSpy canceled(&loader, &RunLoader::canceled);
  loader.load({path});
  EXPECT_TRUE(loader.busy());
  loader.cancel();
  EXPECT_EQ(canceled.count(), 1);
  EXPECT_FALSE(loader.busy());
  QTest::qWait(3000);  // long enough for the worker to finish reading
  EXPECT_EQ(loaded.count(), 0);
  // And a normal load still works afterwards, delivering by signal.
  loader.load({path});
  ASSERT_TRUE(loaded.wait(30000));
  EXPECT_EQ(loaded.first().first().value<SessionPtr>()->a->data.kernels.size(), 200000u);
}

}  // namespace
}  // namespace flopscope::gui::testing
