// The param.sketch column (schema 11): a parameter's content sketch (ParamRecord::sketch) as a BLOB of
// little-endian float64 values, empty when the tensor's values were not read.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "db/model/status.h"

namespace flopscope {

std::string encode_sketch(const std::vector<double>& sketch);
// Errors are Corrupt with a message that says what is wrong (no file name: the caller adds it): a length
// that is neither 0 nor kSketchBuckets values.
Status decode_sketch(std::string_view blob, std::vector<double>& out);

}  // namespace flopscope
