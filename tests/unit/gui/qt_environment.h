// Helpers shared by the GUI tests: the fixture session and image checks.
#pragma once

#include <QImage>
#include <QString>
#include <optional>

#include "gui/models/session.h"
#include "tests/unit/gui/fixture_runs.h"

namespace flopscope::gui::testing {

SessionPtr fixture_session(Variant a, std::optional<Variant> b = std::nullopt);
// Distinct colours in an image: a blank or single-colour picture has 1 or 2.
int distinct_colors(const QImage& image);
// A fresh directory for test outputs under the build tree.
QString output_dir(const QString& name);

}  // namespace flopscope::gui::testing
