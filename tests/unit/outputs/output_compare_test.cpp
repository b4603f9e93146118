#include "analyzer/outputs/output_compare.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string_view>

#include "analyzer/outputs/output_verdict.h"
#include "db/model/sha256.h"

namespace flopscope {
namespace {

// A whole tensor with its statistics; the hash is of the doubles (the producer hashes the dtype's own bytes).
OutputTensor tensor(std::string name, std::vector<std::int64_t> shape, std::vector<double> values,
                    std::string dtype = "float32") {
  OutputTensor t;
  t.name = std::move(name);
  t.dtype = std::move(dtype);
  t.shape = std::move(shape);
  t.values = std::move(values);
  t.sha256 = sha256_hex(
      std::string_view(reinterpret_cast<const char*>(t.values.data()), t.values.size() * sizeof(double)));
  fill_output_statistics(t);
  return t;
}

OutputRecord call(std::string input_hash, std::vector<OutputTensor> tensors, int index = 0) {
  OutputRecord r;
  r.call = index;
  r.input_hash = std::move(input_hash);
  r.tensors = std::move(tensors);
  return r;
}

const std::vector<double> kLogits = {0.1, 0.9, 0.0, 2.0, -1.0, 0.5};  // argmax 1 and 0 for shape [2, 3]

TEST(OutputCompare, EqualToTheLastBit) {
  const auto a = std::vector{call("in1", {tensor("0", {2, 3}, kLogits)})};
  const OutputComparison c = compare_outputs(a, a);
  EXPECT_EQ(c.status, OutputsStatus::kCompared);
  EXPECT_TRUE(c.exact);
  EXPECT_EQ(c.calls_compared, 1);
  ASSERT_EQ(c.tensors.size(), 1u);
  EXPECT_EQ(*c.tensors[0].max_abs_delta, 0.0);
  EXPECT_EQ(*c.max_rel_change, 0.0);
  EXPECT_EQ(c.top1_agree, 2);
  EXPECT_EQ(c.top1_total, 2);
  EXPECT_EQ(output_line(c), "outputs: equal to the last bit (top-1 agreement 2/2)");
  EXPECT_EQ(output_verdict(c), "outputs equal to the last bit");
  EXPECT_EQ(output_verdict(OutputComparison{}), "");  // nothing stored: the sentence says nothing
}

TEST(OutputCompare, TinyChangeIsEquivalentWithinItsPowerOfTen) {
  auto changed = kLogits;
  changed[3] += 3.2e-7;  // max |A| is 2.0: relative 1.6e-7
  const OutputComparison c = compare_outputs({call("in1", {tensor("0", {2, 3}, kLogits)})},
                                             {call("in1", {tensor("0", {2, 3}, changed)})});
  EXPECT_EQ(c.status, OutputsStatus::kCompared);
  EXPECT_FALSE(c.exact);
  const OutputTensorComparison& t = c.tensors[0];
  EXPECT_NEAR(*t.max_abs_delta, 3.2e-7, 1e-12);
  EXPECT_NEAR(*t.max_rel_change, 1.6e-7, 1e-12);
  EXPECT_NEAR(*t.rms_delta, 3.2e-7 / std::sqrt(6.0), 1e-12);
  EXPECT_NEAR(*t.cosine, 1.0, 1e-9);
  EXPECT_NEAR(*c.max_rel_change, 1.6e-7, 1e-12);
  EXPECT_EQ(output_line(c),
            "outputs: max |Δ| 3.2e-7 (relative 1.6e-7), top-1 agreement 2/2: equivalent within 1e-6");
  EXPECT_EQ(output_verdict(c), "outputs equivalent within 1e-6");
}

TEST(OutputCompare, LargeChangeMovesTop1AndIsChanged) {
  auto changed = kLogits;
  changed[2] = 5.0;  // row 0's argmax moves from 1 to 2
  const OutputComparison c = compare_outputs({call("in1", {tensor("logits", {2, 3}, kLogits)})},
                                             {call("in1", {tensor("logits", {2, 3}, changed)})});
  EXPECT_EQ(c.top1_agree, 1);
  EXPECT_EQ(c.top1_total, 2);
  EXPECT_DOUBLE_EQ(*c.max_rel_change, 2.5);
  EXPECT_EQ(output_line(c), "outputs: max |Δ| 5.0e0 (relative 2.5e0), top-1 agreement 1/2: CHANGED");
  EXPECT_EQ(output_verdict(c), "outputs CHANGED (relative change 2.5e0)");
}

TEST(OutputCompare, ShapeOrDtypeMismatchIsNotComparable) {
  const auto a = std::vector{call("in1", {tensor("0", {2, 3}, kLogits)})};
  const OutputComparison shape = compare_outputs(a, {call("in1", {tensor("0", {3, 2}, kLogits)})});
  EXPECT_EQ(shape.status, OutputsStatus::kNotComparable);
  EXPECT_EQ(shape.reason, "output 0 has shape [2, 3] vs [3, 2]: outputs not compared");
  EXPECT_FALSE(shape.max_rel_change.has_value());
  const OutputComparison dtype = compare_outputs(a, {call("in1", {tensor("0", {2, 3}, kLogits, "float64")})});
  EXPECT_EQ(dtype.status, OutputsStatus::kNotComparable);
  EXPECT_EQ(output_line(dtype), "outputs: output 0 has dtype float32 vs float64: outputs not compared");
  const OutputComparison count =
      compare_outputs(a, {call("in1", {tensor("0", {2, 3}, kLogits), tensor("1", {1}, {1.0})})});
  EXPECT_EQ(count.status, OutputsStatus::kNotComparable);
  EXPECT_EQ(count.reason, "A returned 1 output tensor (0), B 2 (0, 1): outputs not compared");
}

TEST(OutputCompare, NanIsReportedAndCounted) {
  auto with_nan = kLogits;
  with_nan[4] = std::numeric_limits<double>::quiet_NaN();
  const OutputComparison c = compare_outputs({call("in1", {tensor("0", {2, 3}, kLogits)})},
                                             {call("in1", {tensor("0", {2, 3}, with_nan)})});
  EXPECT_EQ(c.status, OutputsStatus::kCompared);
  EXPECT_TRUE(c.non_finite);
  EXPECT_EQ(c.tensors[0].nan_b, 1);
  EXPECT_EQ(c.tensors[0].nan_a, 0);
  EXPECT_EQ(*c.max_rel_change, 0.0);  // the finite elements agree
  EXPECT_EQ(output_line(c),
            "outputs: max |Δ| 0 (relative 0), top-1 agreement 2/2: equal in value; "
            "NON-FINITE: 1 NaN in B");
}

TEST(OutputCompare, IntegerOutputsByEquality) {
  const OutputComparison c = compare_outputs({call("in1", {tensor("ids", {4}, {1, 2, 3, 4}, "int64")})},
                                             {call("in1", {tensor("ids", {4}, {1, 2, 7, 4}, "int64")})});
  EXPECT_EQ(c.tensors[0].mismatched, 1);
  EXPECT_EQ(c.top1_total, 0);  // no top-1 for integers
  EXPECT_DOUBLE_EQ(*c.max_rel_change, 1.0);
}

TEST(OutputCompare, SummarizedSidesCompareByHashAndTop1) {
  OutputTensor a = tensor("0", {2, 3}, kLogits);
  OutputTensor b = a;
  b.values.clear();
  b.summarized = true;
  EXPECT_TRUE(compare_outputs({call("in1", {a})}, {call("in1", {b})}).exact);
  b.sha256 = "different";
  const OutputComparison c = compare_outputs({call("in1", {a})}, {call("in1", {b})});
  EXPECT_EQ(c.status, OutputsStatus::kCompared);
  EXPECT_FALSE(c.exact);
  EXPECT_TRUE(c.tensors[0].from_summary);
  EXPECT_FALSE(c.tensors[0].max_abs_delta.has_value());
  EXPECT_FALSE(c.max_rel_change.has_value());
  EXPECT_EQ(c.top1_agree, 2);
  EXPECT_EQ(output_line(c), "outputs: differ (a side was summarized: max |Δ| unknown), top-1 agreement 2/2");
}

TEST(OutputCompare, CallsArePairedByInputHash) {
  const auto t = tensor("0", {2, 3}, kLogits);
  auto changed = kLogits;
  changed[0] = 1.0;
  const OutputComparison differ = compare_outputs({call("in1", {t})}, {call("in2", {t})});
  EXPECT_EQ(differ.status, OutputsStatus::kNotComparable);
  EXPECT_EQ(output_line(differ), "outputs: inputs differ: outputs not compared");
  // B saw the inputs in another order and one more: in2 pairs with in2 (equal), in1 with in1 (changed).
  const OutputComparison some = compare_outputs(
      {call("in1", {t}, 0), call("in2", {t}, 1)},
      {call("in2", {t}, 0), call("in1", {tensor("0", {2, 3}, changed)}, 1), call("in3", {t}, 2)});
  EXPECT_EQ(some.calls_compared, 2);
  EXPECT_EQ(some.calls_left_out, 1);
  EXPECT_NEAR(*some.max_rel_change, 0.45, 1e-12);
}

TEST(OutputCompare, NoOutputsOnASide) {
  const auto a = std::vector{call("in1", {tensor("0", {2, 3}, kLogits)})};
  EXPECT_EQ(output_line(compare_outputs({}, {})), "");
  const OutputComparison c = compare_outputs(a, {});
  EXPECT_EQ(c.status, OutputsStatus::kAbsent);
  EXPECT_EQ(output_line(c), "outputs: only A has outputs: outputs not compared");
}

TEST(OutputRecords, BudgetSummarizesLaterTensors) {
  std::vector<OutputRecord> r = {call("in1", {tensor("0", {2, 3}, kLogits), tensor("1", {2}, {1, 2})})};
  EXPECT_EQ(summarize_outputs_over_budget(r, 6 * 4 + 4), 1);  // float32: 24 bytes fit, the next 8 do not
  EXPECT_FALSE(r[0].tensors[0].summarized);
  EXPECT_TRUE(r[0].tensors[1].summarized);
  EXPECT_TRUE(r[0].tensors[1].values.empty());
  EXPECT_EQ(r[0].tensors[1].max_abs, 2.0);
}

}  // namespace
}  // namespace flopscope
