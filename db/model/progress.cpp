#include "db/model/progress.h"

#include <unistd.h>

#include <atomic>
#include <cstdio>

namespace flopscope {
namespace {
std::atomic<bool> g_enabled{true};
}

void Progress::set_globally_enabled(bool on) {
  g_enabled = on;
}

Progress::Progress(std::string label, std::uint64_t total)
    : label_(std::move(label)), total_(total), enabled_(g_enabled && ::isatty(STDERR_FILENO) == 1) {}

Progress::~Progress() {
  finish();
}

void Progress::update(std::uint64_t done) {
  if (!enabled_) return;
  auto now = std::chrono::steady_clock::now();
  if (drawn_ && now - last_ < std::chrono::milliseconds(100)) return;  // redraw at most 10 times a second
  last_ = now;
  drawn_ = true;
  if (total_ > 0) {
    int pct = static_cast<int>(100.0 * static_cast<double>(done) / static_cast<double>(total_));
    int filled = pct * 30 / 100;
    std::fprintf(stderr, "\r%s [%.*s%*s] %3d%%", label_.c_str(), filled, "##############################",
                 30 - filled, "", pct);
  } else {
    std::fprintf(stderr, "\r%s %llu", label_.c_str(), static_cast<unsigned long long>(done));
  }
  std::fflush(stderr);
}

void Progress::finish() {
  if (enabled_ && drawn_) {
    std::fprintf(stderr, "\r\033[K");
    std::fflush(stderr);
  }
  drawn_ = false;
  enabled_ = false;
}

}  // namespace flopscope
