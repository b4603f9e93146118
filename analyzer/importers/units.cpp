#include "analyzer/importers/units.h"

#include <charconv>
#include <cmath>

namespace flopscope {

std::optional<double> parse_locale_number(std::string_view text) {
  while (!text.empty() && (text.front() == ' ' || text.front() == '"')) text.remove_prefix(1);
  while (!text.empty() && (text.back() == ' ' || text.back() == '"')) text.remove_suffix(1);
  if (text.empty()) return std::nullopt;
  std::size_t commas = 0, dots = 0;
  std::size_t last_comma = std::string_view::npos, last_dot = std::string_view::npos;
  for (std::size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (c == ',') {
      ++commas;
      last_comma = i;
    } else if (c == '.') {
      ++dots;
      last_dot = i;
    } else if (!((c >= '0' && c <= '9') || c == '-' || c == '+' || c == 'e' || c == 'E')) {
      return std::nullopt;
    }
  }
  // Which separator is the decimal point: the one that comes last, unless a lone comma groups thousands.
  char decimal = '.';
  if (commas > 0 && dots > 0) {
    decimal = last_comma > last_dot ? ',' : '.';
  } else if (commas == 1 && dots == 0) {
    // "6,400" groups thousands (ncu prints integers that way); "0,5" is a European decimal.
    decimal = text.size() - last_comma - 1 == 3 ? '.' : ',';
  } else if (dots > 1) {
    decimal = ',';  // "1.234.567": dots group thousands
  }
  std::string clean;
  clean.reserve(text.size());
  for (char c : text) {
    if (c == ',' || c == '.') {
      if (c == decimal) clean += '.';
    } else {
      clean += c;
    }
  }
  double v = 0;
  auto [p, ec] = std::from_chars(clean.data(), clean.data() + clean.size(), v);
  if (ec != std::errc() || p != clean.data() + clean.size() || !std::isfinite(v)) return std::nullopt;
  return v;
}

namespace {

// "Kbyte" -> (1e3, "byte"); "usecond" -> (1e3, "ns"); "inst" -> (1, "inst").
UnitScale simple_unit(std::string_view u) {
  struct Prefix {
    std::string_view p;
    double f;
  };
  static constexpr Prefix kBinary[] = {
      {"Ki", 1024.0}, {"Mi", 1048576.0}, {"Gi", 1073741824.0}, {"Ti", 1099511627776.0}};
  static constexpr Prefix kDecimal[] = {{"K", 1e3}, {"M", 1e6}, {"G", 1e9}, {"T", 1e12}, {"P", 1e15}};
  static constexpr std::string_view kBases[] = {"byte",     "inst",      "cycle",       "warp",
                                                "sector",   "request",   "thread",      "block",
                                                "register", "wavefront", "transaction", "instruction"};
  if (u.empty()) return {1, "", true};
  if (u == "%") return {1, "%", true};
  // Time: everything to nanoseconds.
  static constexpr Prefix kTime[] = {{"nsecond", 1}, {"usecond", 1e3}, {"msecond", 1e6}, {"second", 1e9},
                                     {"ns", 1},      {"us", 1e3},      {"ms", 1e6},      {"s", 1e9}};
  for (const auto& t : kTime) {
    if (u == t.p) return {t.f, "ns", true};
  }
  for (auto base : kBases) {
    if (u == base) return {1, std::string(base), true};
    if (u.ends_with(base)) {
      auto prefix = u.substr(0, u.size() - base.size());
      for (const auto& p : kBinary) {
        if (prefix == p.p) return {p.f, std::string(base), true};
      }
      for (const auto& p : kDecimal) {
        if (prefix == p.p) return {p.f, std::string(base), true};
      }
    }
  }
  return {1, std::string(u), false};
}

}  // namespace

UnitScale unit_scale(std::string_view unit) {
  auto slash = unit.find('/');
  if (slash == std::string_view::npos) return simple_unit(unit);
  UnitScale num = simple_unit(unit.substr(0, slash));
  UnitScale den = simple_unit(unit.substr(slash + 1));
  if (den.base == "ns") {
    // x per (factor ns): to x per second.
    return {num.factor / (den.factor / 1e9), num.base + "/s", num.known && den.known};
  }
  return {num.factor / den.factor, num.base + "/" + den.base, num.known && den.known};
}

}  // namespace flopscope
