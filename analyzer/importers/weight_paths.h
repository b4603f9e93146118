// Attribute paths for traces recorded without flopscope's companion. Kineto names module calls by class
// (`BertModel.BertEncoder.BertLayer_0`, see module_scopes.h); weights are named by attribute
// (`encoder.layer.0.attention.self.query.weight`), so `diff` cannot join them. Given the weights file the
// model ran with, map_weight_paths() renames each class-named module to the attribute path whose tensors
// it used, when the module tree and the tensors' names and shapes leave one choice:
//   - candidates for the children of a module mapped to P are P's attribute children, and the items of
//     list-like children (P.layers.0, P.layers.1, ... of an uncalled ModuleList);
//   - a candidate fits a trace module when every tensor shape under the candidate is among the tensor
//     shapes the module's ops took, and every shape the ops took in a parameter position (linear weight
//     and bias, embedding table, norm and convolution parameters) is among the candidate's;
//   - candidates with the same relative tensor names and shapes look alike; trace modules that fit only
//     one such group take its members in call order (numeric items always; named siblings only when the
//     file keeps the model's registration order: torch.save and TorchScript, not safetensors), and only
//     when the counts are equal;
//   - anything else keeps its class segment under its mapped parent and is listed in data-quality rows
//     (no tensors of its own in the file, e.g. Dropout; or ambiguous, with why).
// Modules already named by attribute (TorchScript hierarchy, the companion) are kept as they are.
#pragma once

#include <string>
#include <vector>

#include "analyzer/weights/weights.h"
#include "db/model/run_data.h"

namespace flopscope {

struct WeightPathResult {
  int modules = 0;     // modules in the run, the root excluded
  int mapped = 0;      // now named by attribute path (including those that already were)
  int by_order = 0;    // of those, chosen by call order among look-alike siblings
  int no_tensors = 0;  // kept: no tensors of their own in the file
  int ambiguous = 0;   // kept: more than one way to name them, or none that fits
  bool trace_has_shapes = true;
  std::int64_t tensors = 0;           // parameters and buffers added to the run
  std::int64_t tensors_unplaced = 0;  // of those, under no module path in the run
};

// Renames run.modules in place (ids unchanged), replaces run.params with the file's tensors (owned by the
// module with the longest matching path), and appends data-quality rows naming what was not mapped.
// `weights_path` is only used in messages.
WeightPathResult map_weight_paths(RunData& run, const WeightsReport& weights,
                                  const std::string& weights_path);

}  // namespace flopscope
