#include "db/json_columns.h"

#include <nlohmann/json.hpp>

namespace flopscope {
namespace {

using nlohmann::json;

// Parses without exceptions; a discarded value means the text was not JSON.
json parse(std::string_view text) { return json::parse(text.begin(), text.end(), nullptr, false); }

bool to_shape(const json& j, std::vector<std::int64_t>& out) {
  if (!j.is_array()) return false;
  out.clear();
  out.reserve(j.size());
  for (const json& d : j) {
    if (!d.is_number_integer()) return false;
    out.push_back(d.get<std::int64_t>());
  }
  return true;
}

}  // namespace

OpArgColumns encode_op_args(std::span<const OpArg> args) {
  json dims = json::array();
  json types = json::array();
  json values = json::array();
  for (const OpArg& a : args) {
    dims.push_back(a.is_tensor ? json(a.shape) : json(nullptr));
    types.push_back(a.dtype);
    values.push_back(a.value);
  }
  // Replace invalid UTF-8 rather than throw: names and values come from user models.
  constexpr auto kReplace = json::error_handler_t::replace;
  return {dims.dump(-1, ' ', false, kReplace), types.dump(-1, ' ', false, kReplace),
          values.dump(-1, ' ', false, kReplace)};
}

Status decode_op_args(std::string_view input_dims, std::string_view input_types, std::string_view concrete_inputs,
                      std::vector<OpArg>& out) {
  json dims = parse(input_dims);
  json types = parse(input_types);
  json values = parse(concrete_inputs);
  if (!dims.is_array() || !types.is_array() || !values.is_array()) {
    return Corrupt("input_dims, input_types and concrete_inputs must be JSON arrays");
  }
  if (dims.size() != types.size() || dims.size() != values.size()) {
    return Corrupt("input_dims, input_types and concrete_inputs have different lengths");
  }
  out.clear();
  out.resize(dims.size());
  for (std::size_t i = 0; i < dims.size(); ++i) {
    OpArg& a = out[i];
    a.is_tensor = !dims[i].is_null();
    if (a.is_tensor && !to_shape(dims[i], a.shape)) return Corrupt("input_dims entry is not a shape or null");
    if (!types[i].is_string() || !values[i].is_string()) {
      return Corrupt("input_types and concrete_inputs entries must be strings");
    }
    a.dtype = types[i].get<std::string>();
    a.value = values[i].get<std::string>();
  }
  return {};
}

std::string encode_shape(std::span<const std::int64_t> shape) {
  std::string s = "[";
  for (std::size_t i = 0; i < shape.size(); ++i) {
    if (i > 0) s += ',';
    s += std::to_string(shape[i]);
  }
  s += ']';
  return s;
}

Status decode_shape(std::string_view text, std::vector<std::int64_t>& out) {
  if (!to_shape(parse(text), out)) return Corrupt("shape is not a JSON array of integers");
  return {};
}

}  // namespace flopscope
