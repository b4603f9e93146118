// The module tree the GUI shows. In diff mode it is an index over the diff engine's result
// (analyzer/diff, the same result `flopscope diff` prints): one node per engine row (flopscope::ModuleDiff),
// with no statuses, counts or wording of its own. With one run, the run's own tree.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "analyzer/diff/diff.h"
#include "analyzer/summary.h"
#include "db/model/run_data.h"

namespace flopscope::gui {

struct DiffNode {
  std::string path;  // "" for the root (A's path for a MOVED module)
  std::string name;  // last path component, or "(model)" for the root
  std::string type;
  int parent = -1;
  std::vector<int> children;
  int a = -1;                                // index into run a's RunSummary::modules, -1 when absent there
  int b = -1;                                // index into run b's RunSummary::modules
  int entry = -1;                            // index into engine->modules (diff mode)
  WeightState weights = WeightState::kNone;  // single-run mode: the parameters the module owns
};

struct DiffTree {
  bool diff_mode = false;
  std::vector<DiffNode> nodes;            // pre-order; [0] is the root
  std::shared_ptr<const RunDiff> engine;  // the diff engine's result (diff mode only)

  int find(const std::string& path) const;
  // The engine's row of a node; nullptr with one run.
  const flopscope::ModuleDiff* entry(const DiffNode& n) const;
  Verdict verdict(const DiffNode& n) const;  // kUnchanged with one run
  WeightState weights_a(const DiffNode& n) const;
  WeightState weights_b(const DiffNode& n) const;
  const std::string& verdict_text(const DiffNode& n) const;  // "" when unchanged or with one run
  int count(Verdict v) const;                                // the engine's count (0 with one run)
};

DiffTree single_run_tree(const RunSummary& a, const RunData& run_a);
DiffTree diff_tree(const RunSummary& a, const RunData& run_a, const RunSummary& b, const RunData& run_b,
                   const DiffOptions& options = {});

// Weight state of the parameters owned by module_id.
WeightState module_weights(const RunData& run, Id module_id);

}  // namespace flopscope::gui
