// The diff graph of two versions paired as the diff engine pairs their modules, for every front end
// (`flopscope graph --diff`, the GUI's graph page): none composes a pairing of its own.
#pragma once

#include <string>
#include <vector>

#include "analyzer/diff/diff.h"
#include "graphs/graph_diff.h"
#include "graphs/graph_model.h"

namespace flopscope::graphs {

// The two runs (or model files) the graphs were drawn from, with their summaries where they are runs.
struct DiffSides {
  const RunData& run_a;
  const RunSummary* summary_a;  // null for a model file: the pairing then has no compute evidence
  const RunData& run_b;
  const RunSummary* summary_b;
};

struct PairedDiffGraph {
  OpGraph graph;
  std::vector<std::string> recorded;  // the maps and alignment renames applied ("B aligned: x -> y")
};

// Module paths as diff_runs pairs them (the maps, then B's containers aligned to A's, with the summaries'
// compute evidence: analyzer/diff/align.h), both graphs renamed by that pairing and diffed by `rule`.
// `verdicts`, the engine's diff of the same runs (null for model files, which have no run to judge), marks
// its DORMANT modules, which the op diff cannot see (their ops still run).
PairedDiffGraph paired_diff_graph(OpGraph a, OpGraph b, const DiffSides& sides, const DiffOptions& options,
                                  const NodeChangeRule& rule, const RunDiff* verdicts);

}  // namespace flopscope::graphs
