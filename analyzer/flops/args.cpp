#include "analyzer/flops/args.h"

#include <charconv>
#include <cstdlib>
#include <string>

namespace flopscope::flops {

std::optional<std::int64_t> parse_int(std::string_view t) {
  while (!t.empty() && (t.front() == ' ' || t.front() == '\'' || t.front() == '"')) t.remove_prefix(1);
  while (!t.empty() && (t.back() == ' ' || t.back() == '\'' || t.back() == '"')) t.remove_suffix(1);
  if (t.empty()) return std::nullopt;
  std::int64_t v = 0;
  auto [p, ec] = std::from_chars(t.data(), t.data() + t.size(), v);
  if (ec != std::errc() || p != t.data() + t.size()) return std::nullopt;
  return v;
}

std::optional<double> parse_double(std::string_view t) {
  std::string s(t);
  char* end = nullptr;
  double v = std::strtod(s.c_str(), &end);
  if (s.empty() || end == s.c_str()) return std::nullopt;
  return v;
}

std::optional<bool> parse_bool(std::string_view t) {
  if (t == "True" || t == "true" || t == "1") return true;
  if (t == "False" || t == "false" || t == "0") return false;
  return std::nullopt;
}

std::optional<std::vector<std::int64_t>> parse_int_list(std::string_view t) {
  while (!t.empty() && t.front() == ' ') t.remove_prefix(1);
  while (!t.empty() && t.back() == ' ') t.remove_suffix(1);
  if (t.empty()) return std::nullopt;
  if ((t.front() == '[' && t.back() == ']') || (t.front() == '(' && t.back() == ')')) {
    t = t.substr(1, t.size() - 2);
  }
  std::vector<std::int64_t> out;
  while (!t.empty()) {
    auto comma = t.find(',');
    auto item = t.substr(0, comma);
    bool blank = item.find_first_not_of(' ') == std::string_view::npos;
    if (!blank) {
      auto v = parse_int(item);
      if (!v) return std::nullopt;
      out.push_back(*v);
    }
    if (comma == std::string_view::npos) break;
    t.remove_prefix(comma + 1);
  }
  return out;
}

std::optional<Shape> broadcast(std::span<const std::int64_t> a, std::span<const std::int64_t> b) {
  std::size_t n = std::max(a.size(), b.size());
  Shape out(n, 1);
  for (std::size_t i = 0; i < n; ++i) {
    std::int64_t da = i < n - a.size() ? 1 : a[i - (n - a.size())];
    std::int64_t db = i < n - b.size() ? 1 : b[i - (n - b.size())];
    if (da != db && da != 1 && db != 1) return std::nullopt;
    out[i] = da == 1 ? db : da;
  }
  return out;
}

}  // namespace flopscope::flops
