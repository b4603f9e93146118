// Value statistics of one located tensor: L2, max |x|, nonzero fraction, the content sketch and sum, and
// sha256 in one pass over its bytes. bfloat16 and float16 are decoded here; dtypes without a decoder fall
// back to raw-byte zero tests (and no sketch).
#pragma once

#include "analyzer/weights/weights.h"

namespace flopscope {

TensorInfo measure_tensor(const TensorLocation& t, const WeightsOptions& options);

float half_to_float(std::uint16_t h);
float bfloat16_to_float(std::uint16_t b);

}  // namespace flopscope
