// Per-op-signature diff: ops grouped by (module path, name, argument signature) in each run.
#pragma once

#include "analyzer/diff/align.h"
#include "analyzer/diff/diff.h"

namespace flopscope {

// `gpu_time`: time is the kernels' device time per iteration, else the ops' inclusive host time.
// Shares are of the given run totals.
std::vector<OpDiff> diff_ops(const RunData& a, const SidePaths& paths_a, const RunData& b, const SidePaths& paths_b,
                             const DiffOptions& options, bool gpu_time, const RunTotals& totals_a,
                             const RunTotals& totals_b);

}  // namespace flopscope
