// Parameters that ops of other modules may read directly (`x + self.pos.weight[:n]`, `F.linear(x,
// self.head.weight)`): a module whose forward never runs can still hold weights the model uses. The evidence
// is an op taking a tensor of a parameter's dtype and shape in a module that owns no parameter of that dtype
// and shape (or its transpose); shapes can coincide, so it is a reason to doubt, not proof.
#pragma once

#include <cstddef>
#include <map>
#include <string>
#include <vector>

#include "db/model/run_data.h"

namespace flopscope {

struct WeightRead {
  std::string param;   // the parameter's name, e.g. "pos.weight"
  std::string op;      // the op that takes a tensor like it, e.g. "aten::slice"
  std::string module;  // that op's module path ("" for the model)
  std::string tensor;  // "float32[8,16]"
};

// For each of `params` (indices into run.params) with such an op, the first op found.
std::map<std::size_t, WeightRead> weights_read_elsewhere(const RunData& run,
                                                         const std::vector<std::size_t>& params);

}  // namespace flopscope
