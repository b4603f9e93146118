#include "db/model/text_escape.h"

#include <cstdint>
#include <cstdio>

namespace flopscope {
namespace {

// Decodes one UTF-8 code point at s[i]; returns its length, or 0 when the bytes there are not valid UTF-8
// (overlong forms, surrogates and values past U+10FFFF included).
std::size_t decode(std::string_view s, std::size_t i, std::uint32_t& cp) {
  const auto b = [&](std::size_t k) { return static_cast<unsigned char>(s[i + k]); };
  const unsigned char c = b(0);
  std::size_t n = 0;
  std::uint32_t min = 0;
  if (c < 0x80) {
    cp = c;
    return 1;
  } else if ((c & 0xE0) == 0xC0) {
    n = 2, cp = c & 0x1F, min = 0x80;
  } else if ((c & 0xF0) == 0xE0) {
    n = 3, cp = c & 0x0F, min = 0x800;
  } else if ((c & 0xF8) == 0xF0) {
    n = 4, cp = c & 0x07, min = 0x10000;
  } else {
    return 0;
  }
  if (i + n > s.size()) return 0;
  for (std::size_t k = 1; k < n; ++k) {
    if ((b(k) & 0xC0) != 0x80) return 0;
    cp = (cp << 6) | (b(k) & 0x3F);
  }
  if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return 0;
  return n;
}

std::string hex_byte(unsigned v) {
  char buf[8];
  std::snprintf(buf, sizeof buf, "\\x%02x", v & 0xFF);
  return buf;
}

std::string hex_cp(std::uint32_t cp) {
  char buf[12];
  std::snprintf(buf, sizeof buf, "\\u%04x", static_cast<unsigned>(cp));
  return buf;
}

bool is_control(std::uint32_t cp) {
  return cp < 0x20 || cp == 0x7F || (cp >= 0x80 && cp <= 0x9F);
}

// Walks `s` by code point: invalid bytes and controls (except those `keep` accepts) become visible escapes;
// every other code point is passed to `put` with its bytes.
template <typename Keep, typename Put>
std::string walk(std::string_view s, Keep keep, Put put) {
  std::string out;
  out.reserve(s.size());
  for (std::size_t i = 0; i < s.size();) {
    std::uint32_t cp = 0;
    const std::size_t n = decode(s, i, cp);
    if (n == 0) {
      out += hex_byte(static_cast<unsigned char>(s[i]));
      ++i;
      continue;
    }
    if (is_control(cp) && !keep(cp)) {
      out += cp < 0x80 ? hex_byte(cp) : hex_cp(cp);
    } else {
      put(out, cp, s.substr(i, n));
    }
    i += n;
  }
  return out;
}

void append(std::string& out, std::uint32_t, std::string_view bytes) {
  out.append(bytes);
}

}  // namespace

std::string terminal_safe(std::string_view s, bool keep_layout) {
  return walk(
      s, [&](std::uint32_t cp) { return keep_layout && (cp == '\n' || cp == '\t'); }, append);
}

std::string markdown_escape(std::string_view s) {
  return walk(
      s, [](std::uint32_t) { return false; },
      [](std::string& out, std::uint32_t cp, std::string_view bytes) {
        static constexpr std::string_view kSpecial = "\\`*_[]()<>#!|~&";
        if (cp < 0x80 && kSpecial.find(static_cast<char>(cp)) != std::string_view::npos) out += '\\';
        out.append(bytes);
      });
}

std::string markdown_code(std::string_view s, bool in_table) {
  std::string body = walk(
      s, [](std::uint32_t) { return false; },
      [&](std::string& out, std::uint32_t cp, std::string_view bytes) {
        if (in_table && cp == '|') out += '\\';
        out.append(bytes);
      });
  std::size_t longest = 0, run = 0;
  for (char c : body) {
    run = c == '`' ? run + 1 : 0;
    if (run > longest) longest = run;
  }
  const std::string fence(longest + 1, '`');
  // A space on each side when the content starts or ends with a backtick (CommonMark strips one of each).
  const bool pad = !body.empty() && (body.front() == '`' || body.back() == '`');
  return fence + (pad ? " " : "") + body + (pad ? " " : "") + fence;
}

std::string xml_escape(std::string_view s) {
  return walk(
      s, [](std::uint32_t cp) { return cp == '\t' || cp == '\n' || cp == '\r'; },
      [](std::string& out, std::uint32_t cp, std::string_view bytes) {
        switch (cp) {
          case '&':
            out += "&amp;";
            return;
          case '<':
            out += "&lt;";
            return;
          case '>':
            out += "&gt;";
            return;
          case '"':
            out += "&quot;";
            return;
          case '\'':
            out += "&#39;";
            return;
          case 0xFFFE:
          case 0xFFFF:
            out += hex_cp(cp);
            return;  // not XML 1.0 characters
          default:
            out.append(bytes);
        }
      });
}

std::string html_escape(std::string_view s) {
  return xml_escape(s);
}

std::string csv_field(std::string_view s) {
  std::string v(s);
  if (!v.empty() && std::string_view("=+-@\t\r").find(v.front()) != std::string_view::npos)
    v.insert(0, 1, '\'');
  if (v.find_first_of(",\"\n\r") == std::string::npos) return v;
  std::string q = "\"";
  for (char c : v) q += c == '"' ? std::string("\"\"") : std::string(1, c);
  return q + "\"";
}

namespace {

bool needs_json_escape(char c) {
  return c == '"' || c == '\\' || static_cast<unsigned char>(c) < 0x20;
}

}  // namespace

void append_json_string(std::string& out, std::string_view s) {
  static constexpr char kHex[] = "0123456789abcdef";
  out += '"';
  std::size_t plain = 0;  // start of the run of characters that pass through unchanged (UTF-8 included)
  for (std::size_t i = 0; i < s.size(); ++i) {
    const char c = s[i];
    if (!needs_json_escape(c)) continue;
    out.append(s.data() + plain, i - plain);
    plain = i + 1;
    switch (c) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\t':
        out += "\\t";
        break;
      case '\r':
        out += "\\r";
        break;
      default:
        out += "\\u00";
        out += kHex[(c >> 4) & 0xf];
        out += kHex[c & 0xf];
    }
  }
  out.append(s.data() + plain, s.size() - plain);
  out += '"';
}

}  // namespace flopscope
