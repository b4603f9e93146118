// The attention mask arithmetic the attention formulas share, exposed for tests and docs examples.
#pragma once

#include <cstdint>

namespace flopscope {

// (query, key) pairs one attention head computes for Nq queries and Nkv keys. Query row i sees the keys j
// with diag(i) - window_left <= j <= diag(i) + window_right (a bound of -1 means unbounded; causal forces
// window_right = 0), where diag(i) = i + Nkv - Nq when bottom_right, else i. No mask: Nq * Nkv. Causal,
// square: N(N+1)/2. Closed form without a left window; with one, row by row up to 2^24 rows, else -1.
double attention_visible_pairs(std::int64_t nq, std::int64_t nkv, bool causal, bool bottom_right,
                               std::int64_t window_left, std::int64_t window_right);

}  // namespace flopscope
