// The test binary's Qt application (QGuiApplication for model tests, QApplication for widget tests), on the
// offscreen platform so tests run without a display. Each test binary instantiates it once.
#pragma once

#include <gtest/gtest.h>

#include <QStandardPaths>
#include <QString>

namespace flopscope::gui::testing {

template <typename App>
class QtAppEnvironment : public ::testing::Environment {
 public:
  void SetUp() override {
    qputenv("QT_QPA_PLATFORM", "offscreen");
    QStandardPaths::setTestModeEnabled(true);  // settings (recent files) go to a test location
    static int argc = 1;
    static char name[] = "gui_test";
    static char* argv[] = {name, nullptr};
    app_ = new App(argc, argv);
    App::setOrganizationName(QStringLiteral("flopscope-test"));
    App::setApplicationName(QStringLiteral("flopscope-gui-test"));
  }
  void TearDown() override { delete app_; }

 private:
  App* app_ = nullptr;
};

}  // namespace flopscope::gui::testing
