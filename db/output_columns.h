// The blob columns of output_tensor (schema 013): argmax as int64 and element values as float32 (float32,
// float16, bfloat16: exact) or float64 (every other dtype), little-endian, as this machine stores them.
// Internal to db/.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "db/model/output_records.h"
#include "db/model/status.h"

namespace flopscope {

std::string encode_output_argmax(const std::vector<std::int64_t>& argmax);
std::string encode_output_values(const OutputTensor& t);
// Fills t.argmax / t.values; a blob whose size does not fit its element type (or t's element count) is
// damage.
Status decode_output_argmax(std::string_view blob, OutputTensor& t);
Status decode_output_values(std::string_view blob, OutputTensor& t);

}  // namespace flopscope
