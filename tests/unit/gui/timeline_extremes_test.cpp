// The timeline far from its zero. At 2^60 ns a double cannot add 1 ns, and the axis loop that added one
// step per tick spun forever there (the window hung on its first paint); ranges past int64 overflowed.
#include <QImage>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <future>
#include <gtest/gtest.h>
#include <thread>

#include "gui/views/timeline_widget.h"
#include "tests/unit/gui/qt_environment.h"

namespace flopscope::gui::testing {
namespace {

// Fails the test in bounded time when a paint never returns (a hang would otherwise wait for CTest's limit).
class Watchdog {
 public:
  explicit Watchdog(std::chrono::seconds limit)
      : thread_([this, limit] {
          if (done_.get_future().wait_for(limit) == std::future_status::timeout) {
            std::fprintf(stderr, "timeline paint did not return within %llds\n", static_cast<long long>(limit.count()));
            std::_Exit(1);
          }
        }) {}
  ~Watchdog() {
    done_.set_value();
    thread_.join();
  }

 private:
  std::promise<void> done_;
  std::thread thread_;
};

TEST(TimelineExtremes, PaintsFarFromItsZeroInBoundedTime) {
  auto session = fixture_session(Variant::kV1);
  ASSERT_TRUE(session);
  TimelineWidget widget;
  widget.resize(900, 300);
  widget.setSession(session);
  Watchdog watchdog(std::chrono::seconds(60));
  // 10 ns across the plot: a 1 ns tick step, below a double's resolution (256 ns) that far out.
  const std::int64_t far = widget.timeOrigin() + (std::int64_t{1} << 60);
  widget.setRange(far, far + 10);
  EXPECT_EQ(widget.rangeBegin(), far);
  const QImage image = widget.grab().toImage();
  EXPECT_GE(distinct_colors(image), 2) << "the axis was drawn";
}

TEST(TimelineExtremes, RangesPastInt64AreClampedNotOverflowed) {
  auto session = fixture_session(Variant::kV1);
  ASSERT_TRUE(session);
  TimelineWidget widget;
  widget.resize(900, 300);
  widget.setSession(session);
  Watchdog watchdog(std::chrono::seconds(60));
  widget.setRange(INT64_MAX - 5, INT64_MAX);
  EXPECT_GT(widget.rangeEnd(), widget.rangeBegin());
  EXPECT_LE(widget.rangeEnd(), (std::int64_t{1} << 61) + 10);
  widget.setRange(INT64_MIN, INT64_MAX);
  EXPECT_GT(widget.rangeEnd(), widget.rangeBegin());
  const QImage image = widget.grab().toImage();
  EXPECT_GE(distinct_colors(image), 2);
}

}  // namespace
}  // namespace flopscope::gui::testing
