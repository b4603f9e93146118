#include "collector/cupti/scope_table.h"

namespace flopscope::gpu {

int ScopeTable::intern(std::string_view path) {
  auto it = ids_.find(std::string(path));
  if (it != ids_.end()) return it->second;
  int id = static_cast<int>(paths_.size());
  paths_.emplace_back(path);
  ids_.emplace(paths_.back(), id);
  return id;
}

int ScopeTable::nvtx_child(int parent, std::string_view name) {
  if (name.empty() || name.find("::") != std::string_view::npos) return parent;
  const std::string& base = path(parent);
  if (base.empty()) return intern(name);
  if (name.size() > base.size() && name.substr(0, base.size()) == base && name[base.size()] == '.') {
    return intern(name);
  }
  return intern(base + "." + std::string(name));
}

}  // namespace flopscope::gpu
