// View tests need a QApplication (widgets).
#include <QApplication>

#include "tests/unit/gui/qt_app_environment.h"

namespace {
[[maybe_unused]] auto* const kEnvironment =
    ::testing::AddGlobalTestEnvironment(new flopscope::gui::testing::QtAppEnvironment<QApplication>);
}  // namespace
