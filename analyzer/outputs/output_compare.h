// Two versions of a model's outputs on the same inputs, compared per output tensor: the second half of the
// proof that a removal is safe (the first is that its work left, analyzer/diff). Used by `diff` (models
// profiled on the fly, or runs stored with --save-outputs), `ablate` and `report --candidates --verify`.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "db/model/output_records.h"

namespace flopscope {

enum class OutputsStatus {
  kAbsent,         // neither side has outputs (a trace, a run stored without --save-outputs)
  kCompared,       // every output of every call with the same inputs was compared
  kNotComparable,  // outputs exist but cannot be compared: `reason` says why (inputs differ, shapes, ...)
};
const char* to_string(OutputsStatus s);

// One output tensor (by name), over every call compared (not weights.h's TensorComparison of two weight
// files): maxima over calls, top-1 counts summed.
struct OutputTensorComparison {
  std::string name;
  std::string dtype_a, dtype_b;
  std::vector<std::int64_t> shape_a, shape_b;
  bool comparable = true;
  std::string problem;        // why not comparable: "shape [2, 3] vs [2, 4]", "dtype float32 vs int64", ...
  bool exact = false;         // every element equal to the last bit (hashes equal)
  bool from_summary = false;  // one side was summarized: max |Δ|, RMS and cosine are not known (nullopt)
  std::optional<double> max_abs_delta;          // max |B - A|
  std::optional<double> max_rel_change;         // max |B - A| / max |A| (0 when both are all zero)
  std::optional<double> rms_delta;              // sqrt(mean((B - A)^2))
  std::optional<double> cosine;                 // of A and B flattened (1 when both are all zero)
  std::int64_t top1_agree = 0, top1_total = 0;  // floating outputs: argmax of the last dimension per position
  std::int64_t mismatched = 0;                  // integer/bool outputs: elements that differ
  std::int64_t nan_a = 0, inf_a = 0, nan_b = 0, inf_b = 0;
};

struct OutputComparison {
  OutputsStatus status = OutputsStatus::kAbsent;
  std::string reason;  // kNotComparable (and kAbsent when one side only has outputs): one plain sentence
  int calls_compared = 0;
  int calls_left_out = 0;  // distinct inputs only one side saw (not compared)
  std::vector<OutputTensorComparison> tensors;
  // Over all tensors: the largest relative change (nullopt when only summaries were compared and they
  // differ), top-1 agreement summed, whether every tensor was equal to the last bit, whether any output holds
  // NaN/Inf.
  std::optional<double> max_rel_change;
  std::int64_t top1_agree = 0, top1_total = 0;
  bool exact = false;
  bool non_finite = false;
};

// Relative change at or below which the line calls outputs "equivalent within 1e-K" (float32 summation-order
// noise is about 1e-7..1e-6); above it they are CHANGED. The gates use the user's own threshold.
inline constexpr double kEquivalentRelChange = 1e-4;

// Pairs A's and B's calls by input hash (calls whose inputs only one side saw are left out; none in common:
// kNotComparable, "inputs differ: outputs not compared") and compares their tensors by name.
OutputComparison compare_outputs(const std::vector<OutputRecord>& a, const std::vector<OutputRecord>& b);

// The one line every view shows ("" when neither side has outputs: views print nothing), e.g. "outputs: max
// |Δ| 3.1e-7 (relative 2.0e-8), top-1 agreement 4096/4096: equivalent within 1e-6", "outputs: equal to the
// last bit", "outputs: inputs differ: outputs not compared".
std::string output_line(const OutputComparison& c);

}  // namespace flopscope
