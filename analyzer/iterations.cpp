#include "analyzer/iterations.h"

#include <algorithm>

namespace flopscope {

IterationIndex::IterationIndex(const RunData& run) {
  if (!run.raw_rows) {
    for (int iteration : run.aggregates.iterations) index_.emplace(iteration, 0);
  }
  for (const auto& op : run.ops) index_.emplace(op.iteration, 0);
  for (const auto& k : run.kernels) {
    if (k.iteration >= 0) index_.emplace(k.iteration, 0);  // < 0: orphans, outside every iteration
  }
  number();
}

IterationIndex::IterationIndex(std::span<const int> present) {
  for (int iteration : present) index_.emplace(iteration, 0);
  number();
}

void IterationIndex::number() {
  int n = 0;
  for (auto& [iteration, idx] : index_) idx = n++;
  count_ = std::max(n, 1);
  if (!index_.empty() && index_.begin()->first >= 0 && index_.rbegin()->first < (1 << 20)) {
    dense_.assign(static_cast<std::size_t>(index_.rbegin()->first) + 1, 0);
    for (auto [iteration, idx] : index_) dense_[static_cast<std::size_t>(iteration)] = idx;
  }
}

std::size_t IterationIndex::operator()(int iteration) const {
  if (iteration >= 0 && static_cast<std::size_t>(iteration) < dense_.size()) {
    return static_cast<std::size_t>(dense_[static_cast<std::size_t>(iteration)]);
  }
  auto it = index_.find(iteration);
  return it == index_.end() ? 0 : static_cast<std::size_t>(it->second);
}

}  // namespace flopscope
