// The test binary's QGuiApplication, on the offscreen platform so tests run without a display.
#include <QGuiApplication>
#include <QStandardPaths>
#include <gtest/gtest.h>

namespace {

class QtEnvironment : public ::testing::Environment {
 public:
  void SetUp() override {
    qputenv("QT_QPA_PLATFORM", "offscreen");
    QStandardPaths::setTestModeEnabled(true);  // settings (recent files) go to a test location
    static int argc = 1;
    static char name[] = "gui_test";
    static char* argv[] = {name, nullptr};
    app_ = new QGuiApplication(argc, argv);
    QGuiApplication::setOrganizationName(QStringLiteral("flopscope-test"));
    QGuiApplication::setApplicationName(QStringLiteral("flopscope-gui-test"));
  }
  void TearDown() override { delete app_; }

 private:
  QGuiApplication* app_ = nullptr;
};

[[maybe_unused]] auto* const kEnvironment = ::testing::AddGlobalTestEnvironment(new QtEnvironment);

}  // namespace
