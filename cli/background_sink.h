// Writes the pieces of a large output from a second thread, so that producing the next piece and the write
// system call overlap: copying the diff's ~100 MB JSON report into the page cache took 0.05-0.2 s here.
#pragma once

#include <condition_variable>
#include <deque>
#include <functional>
#include <mutex>
#include <string>
#include <string_view>
#include <thread>

#include "db/model/status.h"

namespace flopscope::cli {

class BackgroundSink {
 public:
  explicit BackgroundSink(std::function<Status(std::string_view)> write);
  ~BackgroundSink();  // waits for the pieces handed over
  BackgroundSink(const BackgroundSink&) = delete;
  BackgroundSink& operator=(const BackgroundSink&) = delete;

  // Takes the piece's text; `piece` comes back empty (a recycled buffer). Waits while two pieces are queued.
  // An error of an earlier write is returned here (and by finish()), after which nothing more is written.
  Status push(std::string& piece);
  // Waits until every piece is written; the first error.
  Status finish();

 private:
  void run();

  std::function<Status(std::string_view)> write_;
  std::mutex mutex_;
  std::condition_variable changed_;
  std::deque<std::string> queued_, spare_;
  bool closing_ = false;
  bool busy_ = false;
  Status error_;
  std::thread thread_;
};

}  // namespace flopscope::cli
