// The output gates (--max-output-change, --min-top1-agreement) over the diff's output comparison: pass, fail,
// NaN fails whatever the limit, and outputs that were not compared make the gate an error (exit 2).
#include <gtest/gtest.h>

#include "analyzer/diff/gates.h"

namespace flopscope {
namespace {

OutputRecord call(std::vector<double> values, std::string input = "in") {
  OutputTensor t;
  t.name = "0";
  t.dtype = "float32";
  t.shape = {2, 2};
  t.values = std::move(values);
  t.sha256 = std::to_string(t.values[0]) + std::to_string(t.values[1]) + std::to_string(t.values[2]) +
             std::to_string(t.values[3]);
  fill_output_statistics(t);
  return {0, std::move(input), "", {t}};
}

RunDiff diff_of(const OutputRecord& a, const OutputRecord& b) {
  RunDiff d;
  d.outputs = compare_outputs({a}, {b});
  return d;
}

GateOptions gates(std::optional<double> change, std::optional<double> top1 = std::nullopt) {
  GateOptions o;
  o.max_output_change = change;
  o.min_top1_agreement = top1;
  return o;
}

TEST(OutputGates, MaxOutputChangePassesAndFails) {
  const RunDiff d = diff_of(call({1, 2, 4, 3}), call({1, 2.002, 4, 3}));  // relative 0.002 / 4 = 5e-4
  auto g = evaluate_gates(d, gates(1e-3));
  ASSERT_EQ(g.size(), 1u);
  EXPECT_TRUE(g[0].passed);
  EXPECT_EQ(g[0].name, "max-output-change 0.001");
  g = evaluate_gates(d, gates(1e-4));
  EXPECT_FALSE(g[0].passed);
  EXPECT_FALSE(g[0].error);
  EXPECT_EQ(g[0].message, "max relative change 0.0005 (output 0), limit 0.0001");
  const RunDiff same = diff_of(call({1, 2, 4, 3}), call({1, 2, 4, 3}));
  g = evaluate_gates(same, gates(0));
  EXPECT_TRUE(g[0].passed);
  EXPECT_EQ(g[0].message, "outputs equal to the last bit");
}

TEST(OutputGates, Top1Agreement) {
  // Row 0's argmax moves from 1 to 0; row 1's stays at 0.
  const RunDiff d = diff_of(call({1, 2, 4, 3}), call({3, 2, 4, 3}));
  auto g = evaluate_gates(d, gates(std::nullopt, 0.5));
  ASSERT_EQ(g.size(), 1u);
  EXPECT_TRUE(g[0].passed) << g[0].message;
  g = evaluate_gates(d, gates(std::nullopt, 0.999));
  EXPECT_FALSE(g[0].passed);
  EXPECT_EQ(g[0].message, "top-1 agreement 1/2 (50%), limit 99.9%");
}

TEST(OutputGates, NanFailsWhateverTheLimit) {
  const RunDiff d = diff_of(call({1, 2, 4, 3}), call({1, 2, std::nan(""), 3}));
  for (const auto& g : evaluate_gates(d, gates(1e9, 0.0))) {
    EXPECT_FALSE(g.passed) << g.name;
    EXPECT_FALSE(g.error) << g.name;
    EXPECT_NE(g.message.find("1 NaN in B"), std::string::npos) << g.message;
  }
}

TEST(OutputGates, NotComparedIsAnError) {
  const RunDiff inputs = diff_of(call({1, 2, 4, 3}, "x"), call({1, 2, 4, 3}, "y"));
  auto g = evaluate_gates(inputs, gates(1.0, 0.5));
  ASSERT_EQ(g.size(), 2u);
  for (const auto& r : g) {
    EXPECT_TRUE(r.error) << r.name;
    EXPECT_EQ(r.message, "inputs differ: outputs not compared");
  }
  const RunDiff none;
  g = evaluate_gates(none, gates(1.0));
  EXPECT_TRUE(g[0].error);
  EXPECT_NE(g[0].message.find("neither A nor B has outputs"), std::string::npos);
}

TEST(OutputGates, ParseFraction) {
  EXPECT_DOUBLE_EQ(parse_fraction("99.9%", "--min-top1-agreement").value(), 0.999);
  EXPECT_DOUBLE_EQ(parse_fraction("1e-5", "--max-output-change").value(), 1e-5);
  EXPECT_FALSE(parse_fraction("-1", "--max-output-change").ok());
  EXPECT_FALSE(parse_fraction("lots", "--max-output-change").ok());
}

}  // namespace
}  // namespace flopscope
