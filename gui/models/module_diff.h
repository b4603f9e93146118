// The module tree the GUI shows: in diff mode the union of both runs' modules, matched by module path (never
// by id), each with the status, weight states and verdict of the diff engine (analyzer/diff, the same
// engine as `flopscope diff`); with one run, the run's own tree.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "analyzer/diff/diff.h"
#include "analyzer/summary.h"
#include "db/model/run_data.h"

namespace flopscope::gui {

enum class DiffStatus { kSame, kChanged, kVanished, kNew };
const char* to_string(DiffStatus s);

// Parameters owned directly by a module: what the run's weights say about it.
enum class WeightStatus {
  kNone,    // the module owns no parameters in this run (or the run has no weights, e.g. a trace)
  kActive,  // at least one parameter has a non-zero value
  kZeroed,  // every parameter is all zeros
  kErased,  // the other run has parameters here, this one has none
};
const char* to_string(WeightStatus s);

struct DiffNode {
  std::string path;  // "" for the root
  std::string name;  // last path component, or "(model)" for the root
  std::string type;
  int parent = -1;
  std::vector<int> children;
  int a = -1;  // index into run a's RunSummary::modules, -1 when absent there
  int b = -1;  // index into run b's RunSummary::modules
  DiffStatus status = DiffStatus::kSame;
  WeightStatus weights_a = WeightStatus::kNone;
  WeightStatus weights_b = WeightStatus::kNone;
  std::string verdict;  // one line for reviewers; empty when unchanged
};

struct ModuleDiff {
  bool diff_mode = false;
  std::vector<DiffNode> nodes;  // pre-order; [0] is the root
  int vanished = 0, added = 0, changed = 0;
  std::shared_ptr<const RunDiff> engine;  // the diff engine's result (diff mode only), for totals and gates

  int find(const std::string& path) const;
};

ModuleDiff single_run_tree(const RunSummary& a, const RunData& run_a);
ModuleDiff diff_modules(const RunSummary& a, const RunData& run_a, const RunSummary& b, const RunData& run_b);

// Weight status of the parameters owned by module_id.
WeightStatus module_weights(const RunData& run, Id module_id);

}  // namespace flopscope::gui
