// A streaming JSON writer whose text is byte for byte what nlohmann::json::dump(2, ' ', false,
// error_handler_t::replace) prints for the same document: the diff report of two large runs has ~100k
// rows, and building a DOM of them cost several times more than the diff itself.
//
// The caller gives object keys in the order a nlohmann::json (std::map) object holds them, i.e. sorted
// by bytes; tests compare with a parse + dump round trip, which would reorder any key out of place.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace flopscope::cli {

class JsonWriter {
 public:
  explicit JsonWriter(std::string& out) : out_(out) {}
  // A writer of elements inside `depth` open containers written by another writer (the innermost holds
  // elements already unless `first`): their text joins that writer's where it stands (see elements_added).
  JsonWriter(std::string& out, int depth, bool first)
      : out_(out), empty_(static_cast<std::size_t>(depth), false) {
    if (depth > 0) empty_.back() = first;
  }

  void begin_object();
  void end_object();
  void begin_array();
  void end_array();
  // The next member's key (inside an object).
  void key(std::string_view k);

  void value(std::string_view s);
  void value(const char* s) { value(std::string_view(s)); }
  void value(const std::string& s) { value(std::string_view(s)); }
  void value(double v);  // non-finite: null, as nlohmann prints it
  void value(std::int64_t v);
  void value(int v) { value(static_cast<std::int64_t>(v)); }
  void value(bool v);
  void null();
  void value(const std::vector<std::string>& strings);  // an array of strings
  // Elements of the open container were written by another writer (constructed at this depth).
  void elements_added() { empty_.back() = false; }

  // key(k) then value(v).
  template <typename T>
  void member(std::string_view k, const T& v) {
    key(k);
    value(v);
  }

 private:
  void before_value();
  void newline_indent();
  void string(std::string_view s);

  std::string& out_;
  // Per open container: no member written yet (an empty one prints "{}" or "[]").
  std::vector<char> empty_;
  bool after_key_ = false;
};

}  // namespace flopscope::cli
