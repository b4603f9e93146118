#include "cli/printers/json_writer.h"

#include <array>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <nlohmann/json.hpp>

namespace flopscope::cli {

void JsonWriter::newline_indent() {
  out_ += '\n';
  out_.append(2 * empty_.size(), ' ');
}

// Inside an array every value starts a line; inside an object the key did that.
void JsonWriter::before_value() {
  if (after_key_) {
    after_key_ = false;
    return;
  }
  if (empty_.empty()) return;
  if (!empty_.back()) out_ += ',';
  empty_.back() = false;
  newline_indent();
}

void JsonWriter::begin_object() {
  before_value();
  out_ += '{';
  empty_.push_back(true);
}

void JsonWriter::begin_array() {
  before_value();
  out_ += '[';
  empty_.push_back(true);
}

void JsonWriter::end_object() {
  const bool empty = empty_.back();
  empty_.pop_back();
  if (!empty) newline_indent();
  out_ += '}';
}

void JsonWriter::end_array() {
  const bool empty = empty_.back();
  empty_.pop_back();
  if (!empty) newline_indent();
  out_ += ']';
}

void JsonWriter::key(std::string_view k) {
  before_value();
  string(k);
  out_ += ": ";
  after_key_ = true;
}

namespace {

// Bytes copied as they are: printable ASCII but '"' and '\\'.
constexpr std::array<bool, 256> kPlain = [] {
  std::array<bool, 256> t{};
  for (int c = 0x20; c < 0x7F; ++c) t[static_cast<std::size_t>(c)] = c != '"' && c != '\\';
  return t;
}();

// Bytes at the start of `s` that are copied as they are: eight at a time while no byte of a word is a
// control, '"', '\\', DEL or non-ASCII, then one by one.
std::size_t plain_prefix(std::string_view s) {
  constexpr std::uint64_t kOnes = 0x0101010101010101ULL, kHigh = 0x8080808080808080ULL;
  auto has_zero_byte = [](std::uint64_t x) { return ((x - kOnes) & ~x & kHigh) != 0; };
  std::size_t i = 0;
  for (; i + 8 <= s.size(); i += 8) {
    std::uint64_t x;
    std::memcpy(&x, s.data() + i, 8);
    const bool special = (x & kHigh) != 0 || ((x - 0x20 * kOnes) & kHigh) != 0 ||
                         has_zero_byte(x ^ (0x22 * kOnes)) || has_zero_byte(x ^ (0x5C * kOnes)) ||
                         has_zero_byte(x ^ (0x7F * kOnes));
    if (special) break;
  }
  while (i < s.size() && kPlain[static_cast<unsigned char>(s[i])]) ++i;
  return i;
}

}  // namespace

void JsonWriter::string(std::string_view s) {
  // Printable ASCII without '"' or '\\' is copied as it is: every name in a real report. Anything else
  // (controls, non-ASCII, invalid UTF-8 and its replacement) goes through nlohmann's own escaping.
  std::size_t plain = plain_prefix(s);
  if (plain == s.size()) {
    const std::size_t at = out_.size();
    out_.resize(at + s.size() + 2);
    char* p = out_.data() + at;
    *p++ = '"';
    if (!s.empty()) std::memcpy(p, s.data(), s.size());
    p[s.size()] = '"';
    return;
  }
  out_ += nlohmann::json(std::string(s)).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

void JsonWriter::value(std::string_view s) {
  before_value();
  string(s);
}

void JsonWriter::value(double v) {
  before_value();
  if (!std::isfinite(v)) {
    out_ += "null";
    return;
  }
  // Whole numbers below 1e15 (counts, bytes, nanoseconds: most values of a report) print as nlohmann prints
  // them, their digits and ".0", without Grisu2: their neighbours are closer than 1, so no shorter digit
  // string names them. -0 keeps its sign below.
  if (std::fabs(v) < 1e15 && v == std::trunc(v) && !(v == 0 && std::signbit(v))) {
    char buf[24];
    auto r = std::to_chars(buf, buf + sizeof buf, static_cast<std::int64_t>(v));
    out_.append(buf, r.ptr);
    out_ += ".0";
    return;
  }
  // nlohmann's own shortest round-trip formatting (Grisu2, "1.0", "1e+20"): the same digits as dump().
  char buf[64];
  char* end = nlohmann::detail::to_chars(buf, buf + sizeof buf, v);
  out_.append(buf, end);
}

void JsonWriter::value(std::int64_t v) {
  before_value();
  char buf[24];
  auto r = std::to_chars(buf, buf + sizeof buf, v);
  out_.append(buf, r.ptr);
}

void JsonWriter::value(bool v) {
  before_value();
  out_ += v ? "true" : "false";
}

void JsonWriter::null() {
  before_value();
  out_ += "null";
}

void JsonWriter::value(const std::vector<std::string>& strings) {
  begin_array();
  for (const auto& s : strings) value(s);
  end_array();
}

}  // namespace flopscope::cli
