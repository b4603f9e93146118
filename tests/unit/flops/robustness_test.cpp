// Every registered formula must survive malformed arguments (a corrupt trace, a truncated record):
// no crash, no hang, and either known = false or finite numbers.
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "flops_test_util.h"

namespace flopscope::testing {
namespace {

std::vector<std::vector<OpArg>> malformed_argument_sets() {
  std::vector<std::vector<OpArg>> sets = {
      {},
      {S("")},
      {F({})},
      {F({0})},
      {F({0, 0, 0, 0}), F({0, 0, 0, 0}), F({0, 0, 0, 0})},
      {F({2, 3}), S("x"), S("[1,"), S("abc"), S("None")},
      {F({-1, 3}), F({3, -4})},
      {F({1, 3, 8, 8}), F({4, 3, 3, 3}), S(""), S("[0, 0]"), S("[-1]"), S("[0]"), S("0")},
      {F({1, 3, 8, 8}), F({4, 3, 3, 3}), S(""), S("[0, 0]"), S("[1, 1]"), S("[1, 1]"), S("True"), S("[0]"),
       S("-3")},
      {F({1, 3, 8, 8}), S("[0, 0]"), S("[0, 0]"), S("[0, 0]"), S("[0, 0]"), S("True")},
      {F({1, 3, 8, 8}), S("[1000000000000, 5]"), S("[-1, -1]")},
      {F({2, 3}), S("-5"), S("-7"), S("inf"), S("nan")},
      {S("..."), F({2, 3})},
      {S("ab,bc->ac"), F({2, 3})},
      {T("", {4, 4}), T("weird_type", {4, 4}), T("bool", {4})},
  };
  // Every argument position as a tensor of rank 1..5 and as text.
  std::vector<OpArg> wide;
  for (int i = 0; i < 20; ++i) wide.push_back(i % 2 == 0 ? F({2, 3, 4, 5}) : S(std::to_string(i)));
  sets.push_back(wide);
  std::vector<OpArg> tensors;
  for (int i = 0; i < 20; ++i)
    tensors.push_back(F(std::vector<std::int64_t>(static_cast<std::size_t>(i % 5 + 1), 3)));
  sets.push_back(tensors);
  return sets;
}

TEST(FlopsRobustness, MalformedArgumentsNeverCrashOrGoNonFinite) {
  const auto& registry = FlopsRegistry::builtin();
  auto sets = malformed_argument_sets();
  for (const auto& name : registry.names()) {
    for (std::size_t i = 0; i < sets.size(); ++i) {
      FlopsResult r = registry.evaluate(name, sets[i]);
      if (!r.known) continue;
      // Negative sizes in a corrupt record may give negative counts, but never NaN.
      EXPECT_FALSE(std::isnan(r.flops) || std::isnan(r.macs) || std::isnan(r.bytes_read) ||
                   std::isnan(r.bytes_written))
          << name << " with argument set " << i;
    }
  }
}

}  // namespace
}  // namespace flopscope::testing
