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
  // Normalised name -> the name after the user's maps only (before the module matching renamed it).
  std::unordered_map<std::string, std::string> mapped_name;
  // Normalised module path (every dotted prefix of a parameter name, and "" for the whole model) -> the
  // parameters below it.
  std::unordered_map<std::string, WeightSide> by_module;
};

WeightState param_state(const ParamRecord& p, double atol);

// Calls f("") and f(p) for every dotted prefix p of the module that owns `name` ("a.b.weight" -> "a", "a.b").
template <typename F>
void for_each_owner(const std::string& name, F&& f) {
  f(std::string());
  for (std::size_t dot = name.find('.'); dot != std::string::npos; dot = name.find('.', dot + 1)) {
    f(name.substr(0, dot));
  }
}

ParamIndex index_params(const RunData& run, const SidePaths& paths, double atol);

// Joins by name; a parameter found on one side only is looked up by content on the other (ParamDiff's
// moved_to / moved_from). Also marks, per module path, whether any parameter below it changed.
std::vector<ParamDiff> join_params(const ParamIndex& a, const ParamIndex& b, double atol,
                                   std::unordered_map<std::string, bool>* changed_modules);

}  // namespace flopscope
