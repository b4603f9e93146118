#include "tests/unit/gui/qt_environment.h"

#include <QDir>
#include <set>

namespace flopscope::gui::testing {

SessionPtr fixture_session(Variant a, std::optional<Variant> b) {
  auto run_a = make_loaded_run(QStringLiteral("v1.db"), sonnet_run({a}));
  std::shared_ptr<const LoadedRun> run_b;
  if (b) {
    FixtureOptions o{*b};
    o.seed = 2;
    run_b = make_loaded_run(*b == Variant::kV2 ? QStringLiteral("v2.db") : QStringLiteral("v2z.db"),
                            sonnet_run(o));
  }
  return make_session(run_a, run_b);
}

int distinct_colors(const QImage& image) {
  std::set<QRgb> colors;
  for (int y = 0; y < image.height(); y += 2)
    for (int x = 0; x < image.width(); x += 2) colors.insert(image.pixel(x, y));
  return static_cast<int>(colors.size());
}

QString output_dir(const QString& name) {
  QString dir = QStringLiteral(FLOPSCOPE_BINARY_DIR "/test-output/gui/") + name;
  QDir(dir).removeRecursively();
  QDir().mkpath(dir);
  return dir;
}

}  // namespace flopscope::gui::testing
