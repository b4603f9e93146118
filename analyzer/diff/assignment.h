// Optimal assignment (the Hungarian method with potentials, O(n^3)): which B item each A item corresponds to
// when every pair has a score and either side may stay unmatched. The module matching of a diff solves one
// per parent; solving it again with one choice forbidden measures how close the runner-up was.
#pragma once

#include <limits>
#include <vector>

namespace flopscope {

// score[i][j] of A item i and B item j; kForbidden: never paired. Leaving an item unmatched scores 0, so only
// pairs with a positive score are ever taken. `force`: per A item, 0 free, +1 must be matched, -1 must stay
// unmatched (and the same for B in force_b); an impossible demand gives total = -infinity.
struct Assignment {
  std::vector<int> b_of_a;  // -1: unmatched
  std::vector<int> a_of_b;
  double total = 0;  // sum of the scores of the pairs taken
};

inline constexpr double kForbidden = -std::numeric_limits<double>::infinity();

Assignment solve_assignment(const std::vector<std::vector<double>>& score, std::size_t n_b,
                            const std::vector<int>& force_a = {}, const std::vector<int>& force_b = {});

}  // namespace flopscope
