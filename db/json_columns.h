// JSON text for the list-valued columns: an op's arguments in three Kineto-like columns (input_dims,
// input_types, concrete_inputs) and a parameter's shape. Encoding then decoding gives back the same values.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "db/model/records.h"
#include "db/model/status.h"

namespace flopscope {

struct OpArgColumns {
  std::string input_dims;       // [[1,4096],null,...]: a tensor's shape, or null for a non-tensor
  std::string input_types;      // ["float32",""...]: dtype per argument
  std::string concrete_inputs;  // ["","1",...]: value per argument
};

OpArgColumns encode_op_args(std::span<const OpArg> args);
// The same into `out`, reusing its strings' memory (a bulk writer encodes a million rows).
void encode_op_args(std::span<const OpArg> args, OpArgColumns& out);
// Errors are Corrupt with a message that says what is wrong (no file name: the caller adds it).
Status decode_op_args(std::string_view input_dims, std::string_view input_types,
                      std::string_view concrete_inputs, std::vector<OpArg>& out);

std::string encode_shape(std::span<const std::int64_t> shape);  // [64,128]
Status decode_shape(std::string_view json, std::vector<std::int64_t>& out);

}  // namespace flopscope
