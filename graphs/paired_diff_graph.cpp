#include "graphs/paired_diff_graph.h"

#include "analyzer/diff/align.h"
#include "graphs/open_graph.h"

namespace flopscope::graphs {

PairedDiffGraph paired_diff_graph(OpGraph a, OpGraph b, const DiffSides& sides, const DiffOptions& options,
                                  const NodeChangeRule& rule, const RunDiff* verdicts) {
  DiffPaths paths = diff_paths(sides.run_a, sides.run_b, options, sides.summary_a, sides.summary_b);
  rename_modules(a, paths.a);
  rename_modules(b, paths.b);
  PairedDiffGraph out{diff_graphs(a, b, rule), std::move(paths.recorded)};
  if (verdicts != nullptr) {
    for (const auto& m : verdicts->modules)
      if (m.verdict == Verdict::kDormant) out.graph.dormant_modules.insert(m.path);
  }
  return out;
}

}  // namespace flopscope::graphs
