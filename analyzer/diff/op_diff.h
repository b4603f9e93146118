// Per-op-signature diff: ops grouped by (module path, name, argument signature) in each run.
#pragma once

#include <string>
#include <unordered_map>
#include <vector>

#include "analyzer/diff/align.h"
#include "analyzer/diff/between_runs.h"
#include "analyzer/diff/diff.h"

namespace flopscope {

// One op signature of a run: counts and time summed over the whole run (time per iteration index).
struct OpRow {
  std::string module_path, name, signature;
  double calls = 0, flops = 0, bytes = 0, kernels = 0;
  bool counted = false;  // some op of the row has a FLOPs source (formula, counter or nested)
  IterationSeries time;  // per iteration index, sparse: signatures x iterations can be large
};

struct OpRows {
  std::unordered_map<std::string, std::size_t> index;  // "path\x1fname\x1fsignature" -> row
  std::vector<OpRow> rows;
  int iterations = 1;
};

// Ops grouped by (module path as `paths` names it, name, signature); kernels join their op's row. `gpu_time`:
// the rows' time is the kernels' device time, else the ops' inclusive host time.
OpRows aggregate_op_rows(const RunData& run, const SidePaths& paths, bool gpu_time);

// `processes`: which process ran each iteration of A and B (the time test's samples).
// `gpu_time`: time is the kernels' device time per iteration, else the ops' inclusive host time.
// Shares are of the given run totals.
std::vector<OpDiff> diff_ops(const RunData& a, const SidePaths& paths_a, const RunData& b,
                             const SidePaths& paths_b, const DiffOptions& options,
                             const ProcessSplit& processes, bool gpu_time, const RunTotals& totals_a,
                             const RunTotals& totals_b);

// The category table of a diff (RunDiff::categories) from its op rows.
CategorySummary summarize_categories(const std::vector<OpDiff>& ops, bool gpu_time);

}  // namespace flopscope
