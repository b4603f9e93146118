// A bounded, closable hand-over queue between two threads (producer pushes, consumer pops until closed).
#pragma once

#include <condition_variable>
#include <cstddef>
#include <deque>
#include <mutex>
#include <optional>

namespace flopscope {

template <typename T>
class BoundedQueue {
 public:
  explicit BoundedQueue(std::size_t capacity) : capacity_(capacity) {}

  void push(T item) {
    std::unique_lock lock(mutex_);
    space_.wait(lock, [&] { return items_.size() < capacity_; });
    items_.push_back(std::move(item));
    ready_.notify_one();
  }
  void close() {
    std::lock_guard lock(mutex_);
    closed_ = true;
    ready_.notify_one();
  }
  // An item if one is ready now, else nullopt (never waits).
  std::optional<T> try_pop() {
    std::lock_guard lock(mutex_);
    if (items_.empty()) return std::nullopt;
    T item = std::move(items_.front());
    items_.pop_front();
    space_.notify_one();
    return item;
  }
  // nullopt once closed and empty.
  std::optional<T> pop() {
    std::unique_lock lock(mutex_);
    ready_.wait(lock, [&] { return !items_.empty() || closed_; });
    if (items_.empty()) return std::nullopt;
    T item = std::move(items_.front());
    items_.pop_front();
    space_.notify_one();
    return item;
  }

 private:
  std::mutex mutex_;
  std::condition_variable ready_, space_;
  std::deque<T> items_;
  std::size_t capacity_;
  bool closed_ = false;
};

}  // namespace flopscope
