#include "collector/torch/input_spec.h"

#include <algorithm>
#include <charconv>
#include <cstdio>
#include <fstream>
#include <utility>

#include "db/model/dtype.h"

namespace flopscope {
namespace {

constexpr const char* kSupported[] = {"float32", "float64", "float16", "bfloat16", "int64",
                                      "int32",   "int16",   "int8",    "uint8",    "bool"};

bool parse_i64(std::string_view s, std::int64_t& out) {
  if (s.empty()) return false;
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
  return ec == std::errc() && p == s.data() + s.size();
}

Status bad(const std::string& text, const std::string& why) {
  return InvalidArgument(
      "--input '" + text + "': " + why +
      " (expected DTYPE[D0,D1,...][@LOW:HIGH], e.g. float32[1,3,224,224] or int64[1,4096]@0:32000)");
}

}  // namespace

std::string InputSpec::to_string() const {
  std::string s = dtype + "[";
  for (std::size_t i = 0; i < shape.size(); ++i) s += (i ? "," : "") + std::to_string(shape[i]);
  s += "]";
  if (dtype.starts_with("int") || dtype.starts_with("uint")) {
    s += "@" + std::to_string(low) + ":" + std::to_string(high);
  }
  return s;
}

StatusOr<InputSpec> parse_input_spec(const std::string& text) {
  InputSpec spec;
  spec.text = text;
  auto open = text.find('[');
  auto close = text.find(']');
  if (open == std::string::npos || close == std::string::npos || close < open) {
    return bad(text, "missing [shape]");
  }
  spec.dtype = normalize_dtype(text.substr(0, open));
  // Short names users type: bf16, fp16, fp32, fp64.
  for (const auto& [alias, name] : {std::pair{"bf16", "bfloat16"}, std::pair{"fp16", "float16"},
                                    std::pair{"fp32", "float32"}, std::pair{"fp64", "float64"}}) {
    if (spec.dtype == alias) spec.dtype = name;
  }
  bool known = false;
  for (const char* d : kSupported) known = known || spec.dtype == d;
  if (!known) return bad(text, "unknown dtype '" + text.substr(0, open) + "'");
  std::string_view dims(text.data() + open + 1, close - open - 1);
  while (!dims.empty()) {
    auto comma = dims.find(',');
    std::string_view d = dims.substr(0, comma);
    while (!d.empty() && d.front() == ' ') d.remove_prefix(1);
    while (!d.empty() && d.back() == ' ') d.remove_suffix(1);
    std::int64_t v = 0;
    if (!parse_i64(d, v) || v <= 0)
      return bad(text, "dimension '" + std::string(d) + "' is not a positive integer");
    spec.shape.push_back(v);
    if (comma == std::string_view::npos) break;
    dims.remove_prefix(comma + 1);
    if (dims.empty()) return bad(text, "trailing comma in shape");
  }
  std::string_view rest(text.data() + close + 1, text.size() - close - 1);
  if (!rest.empty()) {
    if (rest.front() != '@') return bad(text, "unexpected text after ']'");
    rest.remove_prefix(1);
    auto colon = rest.find(':');
    if (colon == std::string_view::npos || !parse_i64(rest.substr(0, colon), spec.low) ||
        !parse_i64(rest.substr(colon + 1), spec.high) || spec.high <= spec.low) {
      return bad(text, "range must be @LOW:HIGH with LOW < HIGH");
    }
    if (spec.dtype.find("float") != std::string::npos)
      return bad(text, "a value range applies to integer inputs only");
  }
  if (spec.dtype == "bool") {
    spec.low = 0;
    spec.high = 2;
  }
  return spec;
}

StatusOr<std::vector<InputSpec>> parse_input_specs(const std::vector<std::string>& texts) {
  std::vector<InputSpec> out;
  for (const auto& t : texts) {
    FS_ASSIGN_OR_RETURN(InputSpec s, parse_input_spec(t));
    out.push_back(std::move(s));
  }
  return out;
}

StatusOr<std::uint64_t> input_bytes(const std::vector<InputSpec>& specs) {
  std::uint64_t total = 0;
  for (const auto& s : specs) {
    std::uint64_t n = static_cast<std::uint64_t>(std::max(1, dtype_size(s.dtype)));
    for (std::int64_t d : s.shape) {
      if (__builtin_mul_overflow(n, static_cast<std::uint64_t>(d), &n)) {
        return InvalidArgument("--input '" + s.text + "': the tensor is too large to allocate");
      }
    }
    if (__builtin_add_overflow(total, n, &total)) {
      return InvalidArgument("--input '" + s.text + "': the inputs are too large to allocate");
    }
  }
  return total;
}

Status check_inputs_fit_memory(const std::vector<InputSpec>& specs) {
  FS_ASSIGN_OR_RETURN(std::uint64_t need, input_bytes(specs));
  std::ifstream meminfo("/proc/meminfo");
  std::string key;
  std::uint64_t kib = 0;
  std::string unit;
  while (meminfo >> key >> kib >> unit) {
    if (key != "MemAvailable:") continue;
    const std::uint64_t available = kib * 1024;
    if (need > available) {
      char text[160];
      std::snprintf(text, sizeof text, "the inputs need %.1f GiB, more than the %.1f GiB of memory available",
                    static_cast<double>(need) / (1 << 30), static_cast<double>(available) / (1 << 30));
      std::string specs_text;
      for (const auto& s : specs) specs_text += (specs_text.empty() ? "" : " ") + s.text;
      return InvalidArgument("--input " + specs_text + ": " + text);
    }
    return {};
  }
  return {};  // no /proc/meminfo: nothing to compare with
}

}  // namespace flopscope
