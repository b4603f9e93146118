// The CPU scopes kernels are attributed to: dotted module paths ("" is the root), interned to small ids.
// CUPTI-free.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace flopscope::gpu {

class ScopeTable {
 public:
  ScopeTable() { intern(""); }

  // Id of a full dotted path, creating it when new.
  int intern(std::string_view path);
  // The scope an NVTX range named `name` opens inside `parent`: a name that already spells the full
  // path ("layers.0.attn" inside "layers.0") is taken as is; other names are appended with a dot; op
  // names ("aten::linear", anything with "::") are not modules and leave the scope unchanged.
  int nvtx_child(int parent, std::string_view name);
  const std::string& path(int id) const { return paths_[static_cast<std::size_t>(id)]; }
  std::size_t size() const { return paths_.size(); }

 private:
  std::vector<std::string> paths_;
  std::unordered_map<std::string, int> ids_;
};

}  // namespace flopscope::gpu
