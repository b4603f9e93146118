// The iterations present in a run (ops and kernels; kernels with a negative iteration are orphans, launched
// outside the profiling window, and belong to none), numbered 0..count-1 in order, with an O(1) lookup
// when iteration numbers are small non-negative integers (they always are in practice).
#pragma once

#include <cstddef>
#include <map>
#include <optional>
#include <span>
#include <vector>

#include "db/model/run_data.h"

namespace flopscope {

// A kernel launched outside every iteration (before the profiling window): it belongs to none, not to the
// first. Every view that places kernels in iterations asks this.
inline bool is_orphan(const KernelRecord& k) {
  return k.iteration < 0;
}

class IterationIndex {
 public:
  explicit IterationIndex(const RunData& run);
  // From the iteration numbers present, any order, repeats allowed (orphan kernels' negative ones left out).
  explicit IterationIndex(std::span<const int> present);
  // Number of iterations, at least 1 (a run with no records has one, empty, iteration).
  int count() const { return count_; }
  // The first iteration number present (orphans never are); none for a run with no records.
  std::optional<int> first() const {
    return index_.empty() ? std::nullopt : std::optional<int>(index_.begin()->first);
  }
  // Position of an iteration number among those present; 0 for a number not present.
  std::size_t operator()(int iteration) const;

 private:
  void number();

  std::map<int, int> index_;
  std::vector<int> dense_;  // index_ as a vector, when iteration numbers allow
  int count_ = 1;
};

}  // namespace flopscope
