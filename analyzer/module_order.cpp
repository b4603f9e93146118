#include "analyzer/module_order.h"

#include <algorithm>
#include <numeric>

namespace flopscope {

std::vector<std::size_t> modules_deepest_first(const RunSummary& s) {
  std::vector<std::size_t> order(s.modules.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t x, std::size_t y) { return s.modules[x].depth > s.modules[y].depth; });
  return order;
}

}  // namespace flopscope
