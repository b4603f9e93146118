#include "analyzer/format.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <unordered_map>

namespace flopscope {
namespace {

// A negative value that rounds to zero prints as "0", never "-0" ("-0 FLOPs" saved reads as a change).
std::string without_negative_zero(std::string text) {
  const auto nonzero = text.find_first_of("123456789"), exponent = text.find_first_of("eE");
  if (text.starts_with('-') && (nonzero == std::string::npos || nonzero > exponent)) text.erase(0, 1);
  return text;
}

// Three significant digits, shortest form ("12", "1.5", "0.25").
std::string three_digits(double value) {
  char buf[32];
  auto res = std::to_chars(buf, buf + sizeof buf, value, std::chars_format::general, 3);
  return without_negative_zero(std::string(buf, res.ptr));
}

// One decimal, locale-independent (the GUI runs under the user's LC_NUMERIC; printf would write "41,5").
std::string fixed1(double value) {
  char buf[64];
  auto res = std::to_chars(buf, buf + sizeof buf, value, std::chars_format::fixed, 1);
  return without_negative_zero(std::string(buf, res.ptr));
}

}  // namespace

std::string si_text(double value, const char* unit) {
  static constexpr std::array<const char*, 7> kPrefix{"", "k", "M", "G", "T", "P", "E"};
  if (!std::isfinite(value))
    return (std::isnan(value) ? "nan " : value > 0 ? "inf " : "-inf ") + std::string(unit);
  double magnitude = std::fabs(value);
  std::size_t p = 0;
  // 999.5 and not 1000: a value that rounds to 1000 at three digits takes the next prefix ("1 k", not
  // "1e+03").
  while (magnitude >= 999.5 && p + 1 < kPrefix.size()) {
    magnitude /= 1000;
    value /= 1000;
    ++p;
  }
  return three_digits(value) + " " + kPrefix[p] + unit;
}

std::string flops_text(double flops) {
  return si_text(flops, "FLOPs");
}

std::string bytes_text(double bytes) {
  return si_text(bytes, "B");
}

std::string time_text(double ns) {
  if (!std::isfinite(ns)) return si_text(ns, "s");
  double magnitude = std::fabs(ns);
  if (magnitude >= 999.5e6) return three_digits(ns / 1e9) + " s";
  if (magnitude >= 999.5e3) return three_digits(ns / 1e6) + " ms";
  if (magnitude >= 999.5) return three_digits(ns / 1e3) + " \xC2\xB5s";
  return three_digits(ns) + " ns";
}

std::string count_text(double n) {
  if (n == std::floor(n) && std::fabs(n) < 1e15) return std::to_string(static_cast<long long>(n));
  return fixed1(n);
}

std::string percent_text(double fraction) {
  return fixed1(100 * fraction) + "%";
}

std::string signed_percent_text(double fraction) {
  std::string p = fixed1(100 * fraction);
  return (p.starts_with('-') ? "" : "+") + p + "%";
}

std::string elide_middle(std::string_view name, std::size_t width) {
  // Counted in code points, as the tables pad them.
  auto points = [](std::string_view s) {
    std::size_t n = 0;
    for (unsigned char c : s) n += (c & 0xC0) != 0x80;
    return n;
  };
  if (points(name) <= width) return std::string(name);
  if (width < 3) return std::string(name.substr(0, width));
  const std::size_t keep = width - 1;       // one for the "~"
  const std::size_t tail = (keep * 2) / 5;  // the end tells similar names apart; the head says what it is
  const std::size_t head = keep - tail;
  std::size_t h = 0;  // byte length of the first `head` code points
  for (std::size_t seen = 0; h < name.size(); ++h) {
    if ((static_cast<unsigned char>(name[h]) & 0xC0) != 0x80 && seen++ == head) break;
  }
  std::size_t t = name.size();  // byte offset where the last `tail` code points begin
  for (std::size_t seen = 0; t > h && seen < tail;) {
    --t;
    if ((static_cast<unsigned char>(name[t]) & 0xC0) != 0x80) ++seen;
  }
  return std::string(name.substr(0, h)) + "~" + std::string(name.substr(t));
}

namespace {

// Byte offsets of the code points of s, and s.size() at the end.
std::vector<std::size_t> code_points(std::string_view s) {
  std::vector<std::size_t> at;
  for (std::size_t i = 0; i < s.size(); ++i)
    if ((static_cast<unsigned char>(s[i]) & 0xC0) != 0x80) at.push_back(i);
  at.push_back(s.size());
  return at;
}

// head ~ the window from code point `from` ~ tail, `width` code points in all.
std::string elide_around(std::string_view name, std::size_t width, std::size_t from) {
  const auto at = code_points(name);
  const std::size_t n = at.size() - 1;
  const std::size_t head = width / 4, tail = width / 4;
  const std::size_t window = width - head - tail - 2;  // two "~"
  from = std::clamp(from, head, n - tail - window);
  return std::string(name.substr(0, at[head])) + "~" +
         std::string(name.substr(at[from], at[from + window] - at[from])) + "~" +
         std::string(name.substr(at[n - tail]));
}

}  // namespace

std::vector<std::string> elide_distinct(const std::vector<std::string>& names, std::size_t width) {
  std::vector<std::string> out;
  out.reserve(names.size());
  std::unordered_map<std::string, std::vector<std::size_t>> by_text;
  for (std::size_t i = 0; i < names.size(); ++i) {
    out.push_back(elide_middle(names[i], width));
    by_text[out.back()].push_back(i);
  }
  if (width < 12) return out;
  for (const auto& [text, group] : by_text) {
    if (group.size() < 2) continue;
    for (std::size_t i : group) {
      // Where this name parts from the most similar other one (in code points), with a little before it.
      const auto at = code_points(names[i]);
      std::size_t parts = 0;
      for (std::size_t j : group) {
        if (j == i || names[j] == names[i]) continue;
        const auto [a, b] = std::mismatch(names[i].begin(), names[i].end(), names[j].begin(), names[j].end());
        const auto byte = static_cast<std::size_t>(a - names[i].begin());
        const auto point =
            static_cast<std::size_t>(std::upper_bound(at.begin(), at.end(), byte) - at.begin()) - 1;
        parts = std::max(parts, point);
      }
      if (at.size() - 1 > width) out[i] = elide_around(names[i], width, parts > 4 ? parts - 4 : 0);
    }
  }
  return out;
}

std::string count_of(long long n, std::string_view noun, std::string_view plural_noun) {
  std::string out = std::to_string(n) + " ";
  if (n == 1) return out.append(noun);
  return plural_noun.empty() ? out.append(noun).append("s") : out.append(plural_noun);
}

}  // namespace flopscope
