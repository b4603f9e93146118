// Parameters of a run grouped by module subtree, and parameters of two runs joined by name.
#pragma once

#include <string>
#include <unordered_map>
#include <vector>

#include "analyzer/diff/align.h"
#include "analyzer/diff/diff.h"

namespace flopscope {

// Normalised parameter name -> the parameter.
struct ParamIndex {
  std::vector<std::string> names;  // in run order
  std::unordered_map<std::string, const ParamRecord*> by_name;
  // Normalised module path (every dotted prefix of a parameter name, and "" for the whole model) -> the
  // parameters below it.
  std::unordered_map<std::string, WeightSide> by_module;
};

WeightState param_state(const ParamRecord& p, double atol);

ParamIndex index_params(const RunData& run, const SidePaths& paths, double atol);

// Joins by name; also marks, per module path, whether any parameter below it changed.
std::vector<ParamDiff> join_params(const ParamIndex& a, const ParamIndex& b, double atol,
                                   std::unordered_map<std::string, bool>* changed_modules);

}  // namespace flopscope
