// Orders over a summary's module tree, for figures rolled up from children to parents.
#pragma once

#include <cstddef>
#include <vector>

#include "analyzer/summary.h"

namespace flopscope {

// The indices of s.modules, deepest first (ties in tree order): visited in this order, a module's total is
// complete before it is added to its parent's.
std::vector<std::size_t> modules_deepest_first(const RunSummary& s);

}  // namespace flopscope
