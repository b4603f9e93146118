#include "analyzer/flops/args.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <utility>

namespace flopscope::flops {
namespace {

std::string_view trim(std::string_view t) {
  while (!t.empty() && (t.front() == ' ' || t.front() == '\'' || t.front() == '"')) t.remove_prefix(1);
  while (!t.empty() && (t.back() == ' ' || t.back() == '\'' || t.back() == '"')) t.remove_suffix(1);
  return t;
}

// Splits "[a, b]" / "(a, b)" / "a,b" into items and parses each with `parse`.
template <typename T, typename Parse>
std::optional<std::vector<T>> parse_list(std::string_view t, Parse parse) {
  t = trim(t);
  if (t.empty()) return std::nullopt;
  if ((t.front() == '[' && t.back() == ']') || (t.front() == '(' && t.back() == ')')) {
    t = t.substr(1, t.size() - 2);
  }
  std::vector<T> out;
  while (!t.empty()) {
    auto comma = t.find(',');
    auto item = t.substr(0, comma);
    if (item.find_first_not_of(' ') != std::string_view::npos) {
      auto v = parse(item);
      if (!v) return std::nullopt;
      out.push_back(*v);
    }
    if (comma == std::string_view::npos) break;
    t.remove_prefix(comma + 1);
  }
  return out;
}

}  // namespace

double bytes_in(Args args, std::size_t begin, std::size_t end) {
  double b = 0;
  for (std::size_t i = begin; i < end && i < args.size(); ++i) b += tensor_bytes(args[i]);
  return b;
}

std::optional<std::int64_t> parse_int(std::string_view t) {
  t = trim(t);
  if (t.empty()) return std::nullopt;
  std::int64_t v = 0;
  auto [p, ec] = std::from_chars(t.data(), t.data() + t.size(), v);
  if (ec != std::errc() || p != t.data() + t.size()) return std::nullopt;
  return v;
}

std::optional<double> parse_double(std::string_view t) {
  t = trim(t);
  if (!t.empty() && t.front() == '+') t.remove_prefix(1);
  if (t.empty()) return std::nullopt;
  double v = 0;
  auto [p, ec] = std::from_chars(t.data(), t.data() + t.size(), v);
  if (ec != std::errc() || p != t.data() + t.size()) return std::nullopt;
  return v;
}

std::optional<bool> parse_bool(std::string_view t) {
  t = trim(t);
  if (t == "True" || t == "true" || t == "1") return true;
  if (t == "False" || t == "false" || t == "0") return false;
  return std::nullopt;
}

bool is_none(std::string_view t) {
  t = trim(t);
  return t.empty() || t == "None" || t == "none";
}

std::optional<std::vector<std::int64_t>> parse_int_list(std::string_view t) {
  return parse_list<std::int64_t>(t, [](std::string_view s) { return parse_int(s); });
}

std::optional<std::vector<double>> parse_double_list(std::string_view t) {
  return parse_list<double>(t, [](std::string_view s) { return parse_double(s); });
}

std::string_view parse_scalar_type(std::string_view t) {
  t = trim(t);
  if (t.starts_with("torch.")) t.remove_prefix(6);
  // c10::ScalarType enumeration order.
  static constexpr std::array<std::string_view, 16> kByIndex{
      "uint8", "int8",      "int16",      "int32", "int64", "float16", "float32", "float64",
      "",      "complex64", "complex128", "bool",  "",      "",        "",        "bfloat16"};
  if (auto i = parse_int(t)) {
    return *i >= 0 && static_cast<std::size_t>(*i) < kByIndex.size() ? kByIndex[static_cast<std::size_t>(*i)]
                                                                     : std::string_view();
  }
  static constexpr std::array<std::pair<std::string_view, std::string_view>, 14> kNames{{
      {"Float", "float32"},
      {"float", "float32"},
      {"Half", "float16"},
      {"half", "float16"},
      {"BFloat16", "bfloat16"},
      {"Double", "float64"},
      {"double", "float64"},
      {"Long", "int64"},
      {"long", "int64"},
      {"Int", "int32"},
      {"int", "int32"},
      {"Bool", "bool"},
      {"Byte", "uint8"},
      {"Char", "int8"},
  }};
  for (const auto& [name, canonical] : kNames) {
    if (name == t) return canonical;
  }
  return dtype_size(t) > 0 ? t : std::string_view();
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

std::optional<std::size_t> norm_dim(std::int64_t dim, std::size_t rank) {
  auto r = static_cast<std::int64_t>(rank);
  if (dim < 0) dim += r;
  if (dim < 0 || dim >= std::max<std::int64_t>(r, 1)) return std::nullopt;
  return static_cast<std::size_t>(dim);
}

}  // namespace flopscope::flops
