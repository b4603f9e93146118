#include "analyzer/importers/json_stream.h"

#include <cstdint>
#include <cstring>
#include <string>
#include <thread>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "analyzer/importers/bounded_queue.h"
#include "analyzer/importers/importer.h"
#include "db/model/input_limits.h"

namespace flopscope {
namespace {

constexpr std::size_t kPadding = 64;  // >= SIMDJSON_PADDING

bool is_ws(char c) {
  return c == ' ' || c == '\n' || c == '\r' || c == '\t';
}

[[maybe_unused]] bool is_structural(char c) {
  return c == '"' || c == '{' || c == '}' || c == '[' || c == ']';
}

// Bit k set where d[i + k] is '"', '\\', '{', '}', '[' or ']', for the 16 bytes from d + i (readable: the
// buffer keeps kPadding bytes after its end). The reader thread looks at every byte of the trace, so it
// classifies 16 at a time where SSE2 is there (x86-64 always has it) and then visits only those bytes.
std::uint32_t special16(const char* d, std::size_t i) {
#if defined(__SSE2__)
  const __m128i quote = _mm_set1_epi8('"'), slash = _mm_set1_epi8('\\');
  const __m128i open = _mm_set1_epi8('{'), close = _mm_set1_epi8('}');
  const __m128i fold =
      _mm_set1_epi8(0x20);  // '[' | 0x20 == '{', ']' | 0x20 == '}', and nothing else maps there
  __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(d + i));
  __m128i f = _mm_or_si128(v, fold);
  __m128i hit = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(v, quote), _mm_cmpeq_epi8(v, slash)),
                             _mm_or_si128(_mm_cmpeq_epi8(f, open), _mm_cmpeq_epi8(f, close)));
  return static_cast<std::uint32_t>(_mm_movemask_epi8(hit));
#else
  std::uint32_t mask = 0;
  for (int k = 0; k < 16; ++k) {
    char c = d[i + static_cast<std::size_t>(k)];
    if (is_structural(c) || c == '\\') mask |= 1u << k;
  }
  return mask;
#endif
}

// Index just past the closing quote of a string whose opening quote is at `open`, or npos when the
// string does not end inside [open, end).
std::size_t string_end(const char* data, std::size_t open, std::size_t end) {
  std::size_t i = open + 1;
  while (i < end) {
    const void* q = std::memchr(data + i, '"', end - i);
    if (q == nullptr) return std::string::npos;
    std::size_t at = static_cast<std::size_t>(static_cast<const char*>(q) - data);
    std::size_t slashes = 0;
    while (at - slashes > open + 1 && data[at - slashes - 1] == '\\') ++slashes;
    if (slashes % 2 == 0) return at + 1;
    i = at + 1;
  }
  return std::string::npos;
}

}  // namespace

JsonTraceStream::JsonTraceStream(ByteSource& source, std::size_t chunk) : source_(source), chunk_(chunk) {
  buf_.resize(chunk_ + kPadding);
}

Status JsonTraceStream::truncated(const char* where) const {
  return Corrupt(source_.path() + ": truncated JSON: the file ends inside " + where + " (after " +
                 std::to_string(consumed_ + end_) + " bytes)");
}

StatusOr<bool> JsonTraceStream::more() {
  if (eof_) return false;
  // Drop consumed bytes, grow when the unread part fills the buffer (one huge element).
  if (pos_ > 0) {
    std::memmove(buf_.data(), buf_.data() + pos_, end_ - pos_);
    end_ -= pos_;
    consumed_ += pos_;
    pos_ = 0;
  }
  if (end_ + kPadding >= buf_.size() || buf_.size() - kPadding - end_ < chunk_ / 4) {
    buf_.resize(std::max(buf_.size() * 2, end_ + chunk_ + kPadding));
  }
  FS_ASSIGN_OR_RETURN(std::size_t n, source_.read(buf_.data() + end_, buf_.size() - kPadding - end_));
  if (n == 0) {
    eof_ = true;
    return false;
  }
  end_ += n;
  std::memset(buf_.data() + end_, 0, std::min(kPadding, buf_.size() - end_));
  if (progress_) progress_(source_.position());
  return true;
}

StatusOr<bool> JsonTraceStream::fill() {
  if (pos_ < end_) return true;
  return more();
}

Status JsonTraceStream::skip_bom() {
  // Editors on Windows start UTF-8 text with a byte order mark (U+FEFF); JSON allows a parser to skip it.
  while (end_ - pos_ < kUtf8Bom.size()) {
    FS_ASSIGN_OR_RETURN(bool got, more());
    if (!got) break;
  }
  if (std::string_view(buf_.data() + pos_, end_ - pos_).starts_with(kUtf8Bom)) pos_ += kUtf8Bom.size();
  return {};
}

StatusOr<char> JsonTraceStream::peek_non_ws() {
  for (;;) {
    while (pos_ < end_ && is_ws(buf_[pos_])) ++pos_;
    if (pos_ < end_) return buf_[pos_];
    FS_ASSIGN_OR_RETURN(bool got, more());
    if (!got) return '\0';
  }
}

Status JsonTraceStream::expect(char c, const char* where) {
  FS_ASSIGN_OR_RETURN(char got, peek_non_ws());
  if (got == '\0') return truncated(where);
  if (got != c) {
    return Corrupt(source_.path() + ": malformed JSON: expected '" + std::string(1, c) + "' in " + where +
                   " at byte " + std::to_string(consumed_ + pos_) + ", found '" + std::string(1, got) + "'");
  }
  ++pos_;
  return {};
}

StatusOr<std::size_t> JsonTraceStream::value_end() {
  std::size_t scanned = pos_;  // resume point after a refill (offsets shift by the compaction)
  int depth = 0;
  const InputLimits& limits = input_limits();
  // One value is buffered whole: a crafted multi-GB string or bracket run must stop. Measured on the value
  // itself (its end, or the unfinished part buffered), not on what was read past its end.
  auto too_large = [&](std::size_t size) { return size > limits.max_json_value_bytes; };
  auto refuse = [&] {
    return InvalidArgument(source_.path() + ": a JSON value at byte " + std::to_string(consumed_ + pos_) +
                           " is larger than " + std::to_string(limits.max_json_value_bytes >> 20) +
                           " MiB, the limit for one trace event or top-level field (--max-json-value-mb "
                           "raises the limit)");
  };
  auto done = [&](std::size_t end) -> StatusOr<std::size_t> {
    if (too_large(end - pos_)) return refuse();
    return end;
  };
  for (;;) {
    const char* d = buf_.data();
    std::size_t i = scanned;
    char first = d[pos_];
    if (first == '"') {
      std::size_t e = string_end(d, pos_, end_);
      if (e != std::string::npos) return done(e);
    } else if (first == '{' || first == '[') {
      // A state machine over the special bytes only: inside a string, a backslash escapes the next byte and
      // a quote ends it; outside, quotes open strings and brackets count depth.
      bool in_string = false;
      std::size_t string_start = 0, escaped = std::string::npos;
      for (; i < end_; i += 16) {
        std::uint32_t mask = special16(d, i);
        if (end_ - i < 16) mask &= (1u << (end_ - i)) - 1;
        for (; mask != 0; mask &= mask - 1) {
          const std::size_t at = i + static_cast<std::size_t>(__builtin_ctz(mask));
          const char c = d[at];
          if (in_string) {
            if (at == escaped) continue;
            if (c == '\\') {
              escaped = at + 1;
            } else if (c == '"') {
              in_string = false;
            }
            continue;
          }
          if (c == '"') {
            in_string = true;
            string_start = at;
          } else if (c == '{' || c == '[') {
            if (++depth > limits.max_json_depth) {
              return InvalidArgument(source_.path() + ": JSON nested deeper than " +
                                     std::to_string(limits.max_json_depth) + " levels at byte " +
                                     std::to_string(consumed_ + at) + " (--max-json-depth raises the limit)");
            }
          } else if (c == '}' || c == ']') {
            if (--depth == 0) return done(at + 1);
          }
        }
      }
      // Incomplete: an unfinished string is scanned again from its opening quote after the refill.
      i = in_string ? string_start : end_;
    } else {
      while (i < end_ && !(is_ws(d[i]) || d[i] == ',' || d[i] == '}' || d[i] == ']')) ++i;
      if (i < end_ || eof_) return done(i);
    }
    // Incomplete: all that is buffered belongs to this value. Remember how far we got (strings restart at
    // their opening quote), read more.
    if (too_large(end_ - pos_)) return refuse();
    if (first == '{' || first == '[') scanned = i;
    std::size_t offset = scanned - pos_;
    FS_ASSIGN_OR_RETURN(bool got, more());
    if (!got) return std::string::npos;
    scanned = pos_ + offset;
  }
}

Status JsonTraceStream::run(const EventFn& on_event, const FieldFn& on_field, const ProgressFn& on_progress) {
  progress_ = on_progress;
  FS_RETURN_IF_ERROR(skip_bom());
  FS_ASSIGN_OR_RETURN(char first, peek_non_ws());
  if (first == '\0') return InvalidArgument(source_.path() + ": empty file, not a trace");
  bool bare_array = first == '[';
  if (first != '{' && !bare_array) {
    return InvalidArgument(source_.path() + ": not a JSON trace (does not start with '{' or '[')");
  }
  ++pos_;
  bool saw_events = false;
  const std::uint64_t max_events = flopscope::max_events();

  auto read_events = [&]() -> Status {
    saw_events = true;
    FS_ASSIGN_OR_RETURN(char c, peek_non_ws());
    if (c == ']') {
      ++pos_;
      return {};
    }
    for (;;) {
      FS_ASSIGN_OR_RETURN(char start, peek_non_ws());
      if (start == '\0') return truncated("the traceEvents array");
      FS_ASSIGN_OR_RETURN(std::size_t e, value_end());
      if (e == std::string::npos) return truncated("an event of the traceEvents array");
      if (start != '{') {
        return InvalidArgument(source_.path() + ": not a trace: traceEvents holds a non-object at byte " +
                               std::to_string(consumed_ + pos_));
      }
      // What the importer keeps per event is what a trace costs in memory: bounded here, before a crafted
      // trace (a gzip of millions of tiny events) exhausts the machine.
      if (events_ == max_events) {
        return InvalidArgument(source_.path() + ": more than " + std::to_string(max_events) +
                               " events (--max-events raises the limit; the default is sized from the "
                               "memory available)");
      }
      on_event(std::string_view(buf_.data() + pos_, e - pos_), buf_.size() - pos_);
      ++events_;
      pos_ = e;
      FS_ASSIGN_OR_RETURN(char sep, peek_non_ws());
      if (sep == '\0') return truncated("the traceEvents array");
      ++pos_;
      if (sep == ']') return {};
      if (sep != ',') {
        return Corrupt(source_.path() + ": malformed JSON: expected ',' or ']' between events at byte " +
                       std::to_string(consumed_ + pos_ - 1));
      }
    }
  };

  if (bare_array) {
    FS_RETURN_IF_ERROR(read_events());
  } else {
    for (bool first_field = true;; first_field = false) {
      FS_ASSIGN_OR_RETURN(char c, peek_non_ws());
      if (c == '\0') return truncated("the top-level object");
      if (c == '}') {
        ++pos_;
        break;
      }
      if (!first_field) {
        FS_RETURN_IF_ERROR(expect(',', "the top-level object"));
        FS_ASSIGN_OR_RETURN(c, peek_non_ws());
      }
      if (c != '"') {
        return Corrupt(source_.path() + ": malformed JSON: expected a key at byte " +
                       std::to_string(consumed_ + pos_));
      }
      FS_ASSIGN_OR_RETURN(std::size_t ke, value_end());
      if (ke == std::string::npos) return truncated("a top-level key");
      std::string key(buf_.data() + pos_ + 1, ke - pos_ - 2);
      pos_ = ke;
      FS_RETURN_IF_ERROR(expect(':', "the top-level object"));
      FS_ASSIGN_OR_RETURN(char v, peek_non_ws());
      if (v == '\0') return truncated("the top-level object");
      if (key == "traceEvents") {
        if (v != '[') return InvalidArgument(source_.path() + ": not a trace: traceEvents is not an array");
        ++pos_;
        FS_RETURN_IF_ERROR(read_events());
        continue;
      }
      FS_ASSIGN_OR_RETURN(std::size_t ve, value_end());
      if (ve == std::string::npos) return truncated("a top-level value");
      on_field(key, std::string_view(buf_.data() + pos_, ve - pos_), buf_.size() - pos_);
      pos_ = ve;
    }
  }
  FS_ASSIGN_OR_RETURN(char rest, peek_non_ws());
  if (rest != '\0') {
    return Corrupt(source_.path() + ": malformed JSON: unexpected data after the end at byte " +
                   std::to_string(consumed_ + pos_));
  }
  if (!saw_events) {
    return InvalidArgument(source_.path() + ": JSON but not a trace: no traceEvents array");
  }
  return {};
}

namespace {

struct EventBatch {
  struct Item {
    std::size_t offset, size;
    std::string key;  // non-empty: a top-level field
  };
  std::string text;  // events back to back, then kPadding zero bytes
  std::vector<Item> items;
};

}  // namespace

Status run_pipelined(JsonTraceStream& stream, const JsonTraceStream::EventFn& on_event,
                     const JsonTraceStream::FieldFn& on_field,
                     const JsonTraceStream::ProgressFn& on_progress) {
  constexpr std::size_t kBatchBytes = std::size_t{4} << 20;
  constexpr std::size_t kInFlight = 4;
  BoundedQueue<EventBatch> queue(kInFlight);
  // Parsed batches go back to the reader: their memory is reused instead of being freed and faulted in
  // again (4 MiB each; the capacity covers every batch that can exist, so pushing never waits).
  BoundedQueue<EventBatch> spare(kInFlight + 2);
  Status status;
  std::thread reader([&] {
    auto fresh = [&] {
      EventBatch b;
      if (auto reused = spare.try_pop()) {
        b = std::move(*reused);
        b.text.clear();
        b.items.clear();
      } else {
        b.text.reserve(kBatchBytes + (std::size_t{64} << 10));
      }
      return b;
    };
    EventBatch batch = fresh();
    auto flush = [&] {
      batch.text.append(kPadding, '\0');
      queue.push(std::move(batch));
      batch = fresh();
    };
    auto add = [&](std::string_view key, std::string_view text) {
      batch.items.push_back({batch.text.size(), text.size(), std::string(key)});
      batch.text.append(text);
      if (batch.text.size() >= kBatchBytes) flush();
    };
    status = stream.run(
        [&](std::string_view text, std::size_t) { add({}, text); },
        [&](std::string_view key, std::string_view raw, std::size_t) { add(key.empty() ? " " : key, raw); },
        on_progress);
    if (!batch.items.empty()) flush();
    queue.close();
  });
  while (auto batch = queue.pop()) {
    for (const auto& item : batch->items) {
      std::string_view text(batch->text.data() + item.offset, item.size);
      std::size_t readable = batch->text.size() - item.offset;
      if (item.key.empty()) {
        on_event(text, readable);
      } else {
        on_field(item.key, text, readable);
      }
    }
    spare.push(std::move(*batch));
  }
  reader.join();
  return status;
}

}  // namespace flopscope
