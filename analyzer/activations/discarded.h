// Dead compute: work a model runs and then multiplies by an all-zero parameter or constant (ReZero with
// alpha 0, LayerScale with gamma 0, a zeroed LoRA B), from the run's discarded-op records (`profile
// --activations`). One candidate per multiplication, under the module that encloses it and the work it
// discards, with what that work costs.
#pragma once

#include <string>
#include <vector>

#include "analyzer/summary.h"
#include "db/model/run_data.h"

namespace flopscope {

struct DiscardCandidate {
  std::string path;  // the innermost module that holds the multiplication and all the work it discards
  std::string type;
  std::string zero_factor;     // what is zero: "block.alpha", "constant", "scalar 0"
  std::string zeroing_op;      // e.g. "aten::mul"
  std::string zeroing_module;  // the module of that op
  // Modules every op of which (in every iteration) is discarded, outermost only, containers left out: what
  // could be removed.
  std::vector<std::string> discarded_modules;
  int iterations = 0;  // iterations in which the multiplication by zero ran
  int run_iterations = 0;
  // Per iteration: outermost ops (the multiplication included), FLOPs and bytes (means), host time (P50 over
  // the run's iterations); the shares are of the run's totals.
  double ops = 0;
  double flops = 0;
  double bytes = 0;
  double time_p50_ns = 0;
  bool flops_complete = true;  // false: a discarded op has no FLOPs count, so `flops` is a lower bound
  double share_flops = 0;
  double share_time = 0;
};

// A module whose every op, in every iteration, is discarded: it runs only to be multiplied by zero.
struct DiscardedModule {
  std::string path;
  std::string zero_factor;  // what its work is multiplied by (the first one seen)
};

struct DiscardReport {
  std::vector<DiscardCandidate> candidates;  // by FLOPs, largest first
  std::vector<DiscardedModule> modules;      // module order
};

DiscardReport find_discarded(const RunData& run, const RunSummary& summary);

}  // namespace flopscope
