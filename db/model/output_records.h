// What a model returned: per call of the root module, the tensors forward() returned, kept whole up to a size
// limit and beyond it as statistics, a hash and the top-1 index per position, so two versions of a model can
// be held against each other on the same inputs (analyzer/outputs/output_compare.h).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace flopscope {

// One tensor of one call's return value.
struct OutputTensor {
  std::string name;  // where it sits in the returned value: "0", "1", "logits", "0.1" (tuple/list/dict path)
  std::string dtype;                // normalised (db/model/dtype.h): float32, bfloat16, int64, bool, ...
  std::vector<std::int64_t> shape;  // [] for a 0-dim tensor
  // Every element in row-major order, as double (exact for float16/bfloat16/float32, integers below 2^53 and
  // bool); empty when the tensor was summarized (over the size limit).
  std::vector<double> values;
  bool summarized = false;
  // Always filled, so a summarized tensor can still be compared.
  std::string sha256;  // of the raw element bytes in the tensor's own dtype (equal to the last bit)
  double max_abs = 0;  // over finite elements
  double mean = 0;     // over finite elements
  double rms = 0;      // over finite elements
  std::int64_t nan_count = 0;
  std::int64_t inf_count = 0;
  // Top-1 (argmax) index along the last dimension for every position of the others; floating tensors of
  // at least one dimension only; empty otherwise.
  std::vector<std::int64_t> argmax;

  bool operator==(const OutputTensor&) const = default;
};

// One call of the root module (one measured forward() or one request).
struct OutputRecord {
  int call = 0;            // measured call index, 0-based (the iteration of the op rows)
  std::string input_hash;  // sha256 over every input tensor's dtype, shape and bytes, in argument order
  std::string input_tag;   // the request's input-set tag ("" for random --input)
  std::vector<OutputTensor> tensors;

  bool operator==(const OutputRecord&) const = default;
};

// Bytes of element data kept whole per run before tensors are summarized (the data-quality note
// outputs_summarized says which were).
inline constexpr std::int64_t kOutputValueBudgetBytes = 64LL << 20;

}  // namespace flopscope
