#include "analyzer/activations/weights_read.h"

#include <set>
#include <unordered_map>
#include <utility>

namespace flopscope {
namespace {

using TensorKey = std::pair<std::string, std::vector<std::int64_t>>;  // dtype, shape

std::string tensor_text(const TensorKey& k) {
  std::string s = k.first + "[";
  for (std::size_t i = 0; i < k.second.size(); ++i) s += (i ? "," : "") + std::to_string(k.second[i]);
  return s + "]";
}

}  // namespace

std::map<std::size_t, WeightRead> weights_read_elsewhere(const RunData& run,
                                                         const std::vector<std::size_t>& params) {
  std::map<std::size_t, WeightRead> found;
  std::map<TensorKey, std::vector<std::size_t>> wanted;
  for (std::size_t i : params) wanted[{run.params[i].dtype, run.params[i].shape}].push_back(i);
  if (wanted.empty()) return found;
  std::unordered_map<Id, std::set<TensorKey>> owns;  // a module's own parameters (not its descendants')
  for (const auto& p : run.params) {
    owns[p.module_id].insert({p.dtype, p.shape});
    // Its ops take it transposed too (linear's addmm takes weight.t()).
    owns[p.module_id].insert({p.dtype, {p.shape.rbegin(), p.shape.rend()}});
  }
  std::unordered_map<Id, const std::string*> path_of;
  for (const auto& m : run.modules) path_of[m.id] = &m.path;
  for (const auto& op : run.ops) {
    for (const auto& a : op.args) {
      if (!a.is_tensor) continue;
      TensorKey key{a.dtype, a.shape};
      auto w = wanted.find(key);
      if (w == wanted.end()) continue;
      auto own = owns.find(op.module_id);
      if (own != owns.end() && own->second.contains(key)) continue;  // its own weight, or one like it
      auto path = path_of.find(op.module_id);
      for (std::size_t i : w->second) {
        found.try_emplace(i, WeightRead{run.params[i].name, op.name,
                                        path == path_of.end() ? "" : *path->second, tensor_text(key)});
      }
    }
  }
  return found;
}

}  // namespace flopscope
