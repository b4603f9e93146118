#include "cli/background_sink.h"

#include <utility>

namespace flopscope::cli {

BackgroundSink::BackgroundSink(std::function<Status(std::string_view)> write)
    : write_(std::move(write)), thread_([this] { run(); }) {}

BackgroundSink::~BackgroundSink() {
  {
    std::lock_guard lock(mutex_);
    closing_ = true;
  }
  changed_.notify_all();
  thread_.join();
}

Status BackgroundSink::push(std::string& piece) {
  std::unique_lock lock(mutex_);
  changed_.wait(lock, [&] { return queued_.size() < 2 || !error_.ok(); });
  if (!error_.ok()) return error_;
  queued_.push_back(std::move(piece));
  piece.clear();
  if (!spare_.empty()) {
    piece.swap(spare_.back());
    spare_.pop_back();
  }
  changed_.notify_all();
  return {};
}

Status BackgroundSink::finish() {
  std::unique_lock lock(mutex_);
  changed_.wait(lock, [&] { return (queued_.empty() && !busy_) || !error_.ok(); });
  return error_;
}

void BackgroundSink::run() {
  std::unique_lock lock(mutex_);
  for (;;) {
    changed_.wait(lock, [&] { return !queued_.empty() || closing_; });
    if (queued_.empty()) return;
    std::string piece = std::move(queued_.front());
    queued_.pop_front();
    busy_ = true;
    Status st;
    if (error_.ok()) {
      lock.unlock();
      st = write_(piece);
      lock.lock();
    }
    busy_ = false;
    if (!st.ok() && error_.ok()) error_ = st;
    piece.clear();
    spare_.push_back(std::move(piece));
    changed_.notify_all();
  }
}

}  // namespace flopscope::cli
