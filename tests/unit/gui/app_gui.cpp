// Model tests need a QGuiApplication (fonts, images), not widgets.
#include <QGuiApplication>

#include "tests/unit/gui/qt_app_environment.h"

namespace {
[[maybe_unused]] auto* const kEnvironment =
    ::testing::AddGlobalTestEnvironment(new flopscope::gui::testing::QtAppEnvironment<QGuiApplication>);
}  // namespace
