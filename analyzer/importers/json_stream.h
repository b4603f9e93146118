// Streams a Chrome-trace JSON document without building a DOM of the whole file: the elements of the
// "traceEvents" array are handed over one at a time as raw JSON text (with readable padding after them,
// so simdjson can parse them in place), other top-level fields as raw values. Also accepts the bare
// array form `[ {event}, ... ]`. Memory stays at one read chunk plus the largest single element.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string_view>
#include <vector>

#include "analyzer/importers/byte_source.h"
#include "db/model/status.h"

namespace flopscope {

class JsonTraceStream {
 public:
  // Element callback: the raw text of one array element, and how many bytes after its start may be read
  // (>= text.size() + 64). Field callback: a top-level key other than traceEvents and its raw value.
  using EventFn = std::function<void(std::string_view text, std::size_t readable)>;
  using FieldFn = std::function<void(std::string_view key, std::string_view raw, std::size_t readable)>;
  using ProgressFn = std::function<void(std::uint64_t compressed_bytes_read)>;

  explicit JsonTraceStream(ByteSource& source, std::size_t chunk = std::size_t{8} << 20);

  // Errors: truncated input, malformed structure, or no traceEvents array (not a trace).
  Status run(const EventFn& on_event, const FieldFn& on_field, const ProgressFn& on_progress = {});
  std::uint64_t events() const { return events_; }
  std::uint64_t bytes() const { return consumed_ + pos_; }

 private:
  // Ensures at least one unread byte; false at the end of input.
  StatusOr<bool> fill();
  StatusOr<bool> more();  // reads more, keeping [pos_, end_); false at EOF
  StatusOr<char> peek_non_ws();
  Status skip_bom();  // at the start of the input
  // End offset (exclusive) of the JSON value starting at pos_, reading more input as needed.
  StatusOr<std::size_t> value_end();
  Status expect(char c, const char* where);
  Status truncated(const char* where) const;

  ByteSource& source_;
  std::size_t chunk_;
  std::vector<char> buf_;
  std::size_t pos_ = 0;
  std::size_t end_ = 0;
  std::uint64_t consumed_ = 0;  // bytes dropped from the front of buf_
  bool eof_ = false;
  std::uint64_t events_ = 0;
  ProgressFn progress_;
};

// Runs `stream` on a reader thread (input, decompression, finding event boundaries) and calls the
// callbacks on the calling thread with batched copies of the events, so that reading and parsing use two
// cores. Same callbacks and result as stream.run(); on_progress is called from the reader thread.
Status run_pipelined(JsonTraceStream& stream, const JsonTraceStream::EventFn& on_event,
                     const JsonTraceStream::FieldFn& on_field,
                     const JsonTraceStream::ProgressFn& on_progress = {});

}  // namespace flopscope
