// A small, strict JSON codec for exactly the shapes these columns hold (arrays of integers, of strings, of
// shapes or null). Hand-written because a general JSON DOM costs several times more per row, and a run can
// hold millions of ops.
#include "db/json_columns.h"

#include <charconv>

#include "db/model/text_escape.h"

namespace flopscope {
namespace {

void append_shape(std::string& out, std::span<const std::int64_t> shape) {
  out += '[';
  char buf[24];
  for (std::size_t i = 0; i < shape.size(); ++i) {
    if (i > 0) out += ',';
    auto end = std::to_chars(buf, buf + sizeof buf, shape[i]).ptr;
    out.append(buf, end);
  }
  out += ']';
}

void append_utf8(std::string& out, std::uint32_t cp) {
  if (cp < 0x80) {
    out += static_cast<char>(cp);
  } else if (cp < 0x800) {
    out += static_cast<char>(0xc0 | (cp >> 6));
    out += static_cast<char>(0x80 | (cp & 0x3f));
  } else if (cp < 0x10000) {
    out += static_cast<char>(0xe0 | (cp >> 12));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3f));
    out += static_cast<char>(0x80 | (cp & 0x3f));
  } else {
    out += static_cast<char>(0xf0 | (cp >> 18));
    out += static_cast<char>(0x80 | ((cp >> 12) & 0x3f));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3f));
    out += static_cast<char>(0x80 | (cp & 0x3f));
  }
}

// A cursor over one JSON text; every parse_* returns false on anything unexpected.
class Parser {
 public:
  explicit Parser(std::string_view text) : p_(text.data()), end_(text.data() + text.size()) {}

  // Calls element() for each element of an array; element parses it.
  template <typename ElementFn>
  bool parse_array(ElementFn&& element) {
    if (!consume('[')) return false;
    if (consume(']')) return true;
    do {
      if (!element()) return false;
    } while (consume(','));
    return consume(']');
  }

  bool parse_shape(std::vector<std::int64_t>& out) {
    out.clear();
    return parse_array([&] {
      skip_space();
      std::int64_t v = 0;
      auto [next, ec] = std::from_chars(p_, end_, v);
      if (ec != std::errc() || (next < end_ && (*next == '.' || *next == 'e' || *next == 'E'))) return false;
      p_ = next;
      out.push_back(v);
      return true;
    });
  }

  bool parse_null() {
    skip_space();
    if (end_ - p_ < 4 || std::string_view(p_, 4) != "null") return false;
    p_ += 4;
    return true;
  }

  bool peek_null() {
    skip_space();
    return p_ < end_ && *p_ == 'n';
  }

  bool parse_string(std::string& out) {
    out.clear();
    if (!consume('"')) return false;
    while (p_ < end_) {
      char c = *p_++;
      if (c == '"') return true;
      if (c != '\\') {
        out += c;
        continue;
      }
      if (p_ == end_) return false;
      switch (*p_++) {
        case '"':
          out += '"';
          break;
        case '\\':
          out += '\\';
          break;
        case '/':
          out += '/';
          break;
        case 'b':
          out += '\b';
          break;
        case 'f':
          out += '\f';
          break;
        case 'n':
          out += '\n';
          break;
        case 'r':
          out += '\r';
          break;
        case 't':
          out += '\t';
          break;
        case 'u': {
          std::uint32_t cp = 0;
          if (!hex4(cp)) return false;
          if (cp >= 0xd800 && cp < 0xdc00) {  // a surrogate pair
            std::uint32_t low = 0;
            if (end_ - p_ < 2 || p_[0] != '\\' || p_[1] != 'u') return false;
            p_ += 2;
            if (!hex4(low) || low < 0xdc00 || low >= 0xe000) return false;
            cp = 0x10000 + ((cp - 0xd800) << 10) + (low - 0xdc00);
          }
          append_utf8(out, cp);
          break;
        }
        default:
          return false;
      }
    }
    return false;
  }

  bool at_end() {
    skip_space();
    return p_ == end_;
  }

 private:
  void skip_space() {
    while (p_ < end_ && (*p_ == ' ' || *p_ == '\n' || *p_ == '\t' || *p_ == '\r')) ++p_;
  }
  bool consume(char c) {
    skip_space();
    if (p_ < end_ && *p_ == c) {
      ++p_;
      return true;
    }
    return false;
  }
  bool hex4(std::uint32_t& v) {
    if (end_ - p_ < 4) return false;
    auto [next, ec] = std::from_chars(p_, p_ + 4, v, 16);
    if (ec != std::errc() || next != p_ + 4) return false;
    p_ += 4;
    return true;
  }

  const char* p_;
  const char* end_;
};

// Parses an array of strings into field `member` of consecutive args; the count must match.
template <typename Member>
bool parse_strings(std::string_view text, std::vector<OpArg>& args, Member member) {
  Parser p(text);
  std::size_t i = 0;
  bool ok = p.parse_array([&] { return i < args.size() && p.parse_string(args[i++].*member); });
  return ok && i == args.size() && p.at_end();
}

}  // namespace

void encode_op_args(std::span<const OpArg> args, OpArgColumns& c) {
  c.input_dims.assign(1, '[');
  c.input_types.assign(1, '[');
  c.concrete_inputs.assign(1, '[');
  for (std::size_t i = 0; i < args.size(); ++i) {
    if (i > 0) {
      c.input_dims += ',';
      c.input_types += ',';
      c.concrete_inputs += ',';
    }
    if (args[i].is_tensor) {
      append_shape(c.input_dims, args[i].shape);
    } else {
      c.input_dims += "null";
    }
    append_json_string(c.input_types, args[i].dtype);
    append_json_string(c.concrete_inputs, args[i].value);
  }
  c.input_dims += ']';
  c.input_types += ']';
  c.concrete_inputs += ']';
}

OpArgColumns encode_op_args(std::span<const OpArg> args) {
  OpArgColumns c;
  encode_op_args(args, c);
  return c;
}

Status decode_op_args(std::string_view input_dims, std::string_view input_types,
                      std::string_view concrete_inputs, std::vector<OpArg>& out) {
  out.clear();
  Parser dims(input_dims);
  bool ok = dims.parse_array([&] {
    OpArg& a = out.emplace_back();
    if (dims.peek_null()) return dims.parse_null();
    a.is_tensor = true;
    return dims.parse_shape(a.shape);
  });
  if (!ok || !dims.at_end()) return Corrupt("input_dims is not a JSON array of shapes and nulls");
  if (!parse_strings(input_types, out, &OpArg::dtype)) {
    return Corrupt("input_types is not a JSON array of " + std::to_string(out.size()) + " strings");
  }
  if (!parse_strings(concrete_inputs, out, &OpArg::value)) {
    return Corrupt("concrete_inputs is not a JSON array of " + std::to_string(out.size()) + " strings");
  }
  return {};
}

std::string encode_shape(std::span<const std::int64_t> shape) {
  std::string s;
  append_shape(s, shape);
  return s;
}

Status decode_shape(std::string_view text, std::vector<std::int64_t>& out) {
  Parser p(text);
  if (!p.parse_shape(out) || !p.at_end()) return Corrupt("shape is not a JSON array of integers");
  return {};
}

}  // namespace flopscope
