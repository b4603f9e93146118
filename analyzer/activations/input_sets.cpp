#include "analyzer/activations/input_sets.h"

#include <set>

namespace flopscope {

std::map<int, std::string> iteration_input_sets(const RunData& run) {
  std::map<int, std::string> sets;
  for (const auto& a : run.activations) sets.emplace(a.iteration, a.input_tag);
  return sets;
}

std::vector<std::string> input_set_tags(const std::map<int, std::string>& iteration_sets) {
  std::set<std::string> tags;
  for (const auto& [iteration, tag] : iteration_sets) tags.insert(tag);
  return {tags.begin(), tags.end()};
}

RunSummary summarize_input_set(const RunData& run, const std::map<int, std::string>& iteration_sets,
                               const std::string& tag) {
  auto in_set = [&](int iteration) {
    auto it = iteration_sets.find(iteration);
    return it != iteration_sets.end() && it->second == tag;
  };
  RunData part;
  part.info = run.info;
  part.modules = run.modules;
  for (const auto& op : run.ops) {
    if (!in_set(op.iteration)) continue;
    part.ops.push_back(op);
    part.ops.back().args.clear();  // the summary reads no argument lists
  }
  for (const auto& k : run.kernels) {
    if (in_set(k.iteration)) part.kernels.push_back(k);
  }
  return summarize(part);
}

}  // namespace flopscope
