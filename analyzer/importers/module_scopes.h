// Naming modules from nested scope events. Eager PyTorch traces name each module call
// "nn.Module: <Class>_<k>" (k counts instances of that class in the whole model), and NVTX traces name
// ranges freely; neither carries the attribute names a user knows (`encoder.layer.0.attention`). So:
//   - the nesting of scopes on a thread gives a tree of module *instances* (keyed by the instance name
//     under its parent, so repeated calls of one module land on one node);
//   - a node's path segment is its class name when it is the only instance of that class under its
//     parent, else "<Class>_<i>" with i the 0-based order of first call among its same-class siblings
//     (so BertEncoder's layers are BertLayer_0, BertLayer_1, ... and the three projections in
//     BertSdpaSelfAttention are Linear_0, Linear_1, Linear_2 in every layer, whatever the global k);
//   - a single outermost instance (the model) is the root "" when single_top_is_root;
//   - dots inside names become '_' so that paths stay dotted.
// Paths are stable across hardware for the same model and code (H100 vs MI300 give the same set).
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace flopscope {

struct ScopeSpan {
  std::uint32_t thread = 0;
  std::int64_t start_ns = 0;
  std::int64_t end_ns = 0;
  std::string_view instance;
  std::string_view type;
};

// Nodes are interned as parent + segment, not whole paths: a path's text grows with its depth, so a chain
// thousands of levels deep would cost depth-squared memory here and in every copy.
struct NamedScopes {
  std::vector<std::int32_t> node;  // per scope: index into the per-node vectors
  std::vector<std::int32_t>
      parent;  // per node: parent node, -1 below the root; a parent precedes its children
  std::vector<std::string> segment;  // per node: last path segment ("" only for the root)
  std::vector<std::string> type;     // per node: class name
  // Dotted path of a node ("" = root), built on demand.
  std::string path(std::int32_t node) const;
};

// `scopes` must be sorted by (thread, start ascending, end descending).
NamedScopes name_scopes(std::span<const ScopeSpan> scopes, bool single_top_is_root);

}  // namespace flopscope
