#include "db/model/output_records.h"

#include <algorithm>
#include <cmath>

#include "db/model/dtype.h"

namespace flopscope {

void fill_output_statistics(OutputTensor& t) {
  double max_abs = 0, sum = 0, sum_sq = 0;
  std::int64_t finite = 0;
  t.nan_count = t.inf_count = 0;
  for (const double v : t.values) {
    if (std::isnan(v)) {
      ++t.nan_count;
    } else if (std::isinf(v)) {
      ++t.inf_count;
    } else {
      max_abs = std::max(max_abs, std::fabs(v));
      sum += v;
      sum_sq += v * v;
      ++finite;
    }
  }
  t.max_abs = max_abs;
  t.mean = finite ? sum / static_cast<double>(finite) : 0.0;
  t.rms = finite ? std::sqrt(sum_sq / static_cast<double>(finite)) : 0.0;
  t.argmax.clear();
  if (!is_floating_dtype(t.dtype) || t.shape.empty() || t.shape.back() <= 0) return;
  const auto last = static_cast<std::size_t>(t.shape.back());
  // NaN never wins (a comparison with NaN is false); a row of NaN gives index 0.
  for (std::size_t row = 0; row + last <= t.values.size(); row += last) {
    std::size_t best = 0;
    for (std::size_t i = 1; i < last; ++i)
      if (t.values[row + i] > t.values[row + best] || std::isnan(t.values[row + best])) best = i;
    t.argmax.push_back(static_cast<std::int64_t>(best));
  }
}

int summarize_outputs_over_budget(std::vector<OutputRecord>& records, std::int64_t budget_bytes) {
  std::int64_t used = 0;
  int summarized = 0;
  bool over = false;
  for (auto& r : records) {
    for (auto& t : r.tensors) {
      if (t.summarized) {
        ++summarized;
        continue;
      }
      const std::int64_t bytes =
          static_cast<std::int64_t>(t.values.size()) * std::max(1, dtype_size(t.dtype));
      over = over || used + bytes > budget_bytes;
      if (over) {
        t.values.clear();
        t.values.shrink_to_fit();
        t.summarized = true;
        ++summarized;
      } else {
        used += bytes;
      }
    }
  }
  return summarized;
}

}  // namespace flopscope
