#include "db/model/text_escape.h"

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <cstdio>
#include <utility>
#include <vector>

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

// Controls, and the bidirectional embeddings, overrides and isolates (U+202A..U+202E, U+2066..U+2069):
// raw, those reorder the text after them on a terminal or a web page and can make a name read as another.
bool is_control(std::uint32_t cp) {
  return cp < 0x20 || cp == 0x7F || (cp >= 0x80 && cp <= 0x9F) || (cp >= 0x202A && cp <= 0x202E) ||
         (cp >= 0x2066 && cp <= 0x2069);
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
  // The terminal's rule for controls (a CSV file is read on terminals and by spreadsheets alike), then
  // RFC 4180 quoting.
  std::string v = terminal_safe(s, false);
  if (!v.empty() && std::string_view("=+-@\t\r").find(v.front()) != std::string_view::npos)
    v.insert(0, 1, '\'');
  if (v.find_first_of(",\"\n\r") == std::string::npos) return v;
  std::string q = "\"";
  for (char c : v) q += c == '"' ? std::string("\"\"") : std::string(1, c);
  return q + "\"";
}

std::string prometheus_label_value(std::string_view s) {
  // The format's three escapes for backslash, quote and newline; everything else shown as the terminal
  // shows it (a carriage return as \x0d, whose backslash is then escaped): the format has no escape for a
  // raw CR, and prometheus_client ends a line at one; Prometheus refuses invalid UTF-8.
  std::string out;
  out.reserve(s.size());
  for (char c : walk(
           s, [](std::uint32_t cp) { return cp == '\n'; }, append)) {
    if (c == '\\')
      out += "\\\\";
    else if (c == '"')
      out += "\\\"";
    else if (c == '\n')
      out += "\\n";
    else
      out += c;
  }
  return out;
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

namespace {

bool is_space(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

// [begin, end) of each password in `s`.
std::vector<std::pair<std::size_t, std::size_t>> find_passwords(std::string_view s) {
  std::vector<std::pair<std::size_t, std::size_t>> found;
  // password=VALUE: a URL query parameter or a libpq keyword (spaces around '=', 'single quotes').
  for (std::size_t i = 0; i + 8 <= s.size(); ++i) {
    std::size_t k = 0;
    while (k < 8 && std::tolower(static_cast<unsigned char>(s[i + k])) == "password"[k]) ++k;
    if (k < 8) continue;
    std::size_t j = i + 8;
    while (j < s.size() && is_space(s[j])) ++j;
    if (j >= s.size() || s[j] != '=') continue;
    ++j;
    while (j < s.size() && is_space(s[j])) ++j;
    std::size_t begin = j, end = j;
    if (j < s.size() && s[j] == '\'') {
      begin = ++j;
      while (j < s.size() && s[j] != '\'') j += s[j] == '\\' ? 2 : 1;
      end = std::min(j, s.size());
    } else {
      while (j < s.size() && !is_space(s[j]) && s[j] != '&' && s[j] != '"' && s[j] != '\'') ++j;
      end = j;
    }
    if (end > begin) found.emplace_back(begin, end);
    i = end;
  }
  // user:PASSWORD@host: in each space-separated word, from after the scheme (`x://`, `x:/`, or the word's
  // start) to the word's last '@' before any '?', the text after the first ':' is the password.
  for (std::size_t w = 0; w < s.size();) {
    while (w < s.size() && is_space(s[w])) ++w;
    std::size_t e = w;
    while (e < s.size() && !is_space(s[e])) ++e;
    std::string_view word = s.substr(w, e - w);
    std::size_t q = word.find('?');
    std::size_t at = word.substr(0, q).rfind('@');
    if (at != std::string_view::npos) {
      std::size_t start = 0;
      if (auto sep = word.find(":/"); sep != std::string_view::npos && sep < at) {
        start = sep + 2;
        while (start < at && word[start] == '/') ++start;
      }
      while (start < at && (word[start] == '"' || word[start] == '\'')) ++start;
      std::size_t colon = word.find(':', start);
      if (colon != std::string_view::npos && colon < at && colon + 1 < at)
        found.emplace_back(w + colon + 1, w + at);
    }
    w = e;
  }
  return found;
}

}  // namespace

std::string redact_passwords(std::string_view text, std::string_view secrets_from) {
  auto spans = find_passwords(text);
  std::sort(spans.begin(), spans.end());
  std::string out;
  std::size_t pos = 0;
  for (const auto& [b, e] : spans) {
    if (b < pos) continue;  // overlapping forms: the first one masked it
    out.append(text.substr(pos, b - pos));
    out += "***";
    pos = e;
  }
  out.append(text.substr(pos));
  // Passwords of the address that the message repeats outside those forms.
  for (const auto& [b, e] : find_passwords(secrets_from)) {
    const std::string secret(secrets_from.substr(b, e - b));
    if (secret.size() < 3 || secret == "***") continue;  // too short to tell from ordinary text
    for (std::size_t at = out.find(secret); at != std::string::npos; at = out.find(secret, at + 3))
      out.replace(at, secret.size(), "***");
  }
  return out;
}

}  // namespace flopscope
