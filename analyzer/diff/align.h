// Path rewriting per side of a diff: the user's maps (--map both sides, --map-a, --map-b), then the
// structural alignment of container children (ModuleList, Sequential, ModuleDict), which renames B's
// children to the A child they match, so that removing `blocks.1` makes `blocks.2` of A meet `blocks.1`
// of B instead of shifting the blame onto every later index.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "analyzer/diff/diff.h"

namespace flopscope {

struct SidePaths {
  std::vector<PathMap> maps;  // applied first, in order
  // Whole-component prefix renames applied after the maps: the longest matching key wins, applied once.
  std::vector<std::pair<std::string, std::string>> renames;
  std::string operator()(const std::string& path) const;
};

// Renames for B (keys: B paths after B's maps; values: A paths) that align each container's children by
// sequence alignment over their subtrees' fingerprints: module types, parameter shapes and content hashes
// (an exact match outranks a shape match outranks a type match; ties keep the same name). B children left
// unmatched whose name an A child also has get the suffix "@B", so they never join that A child.
std::vector<std::pair<std::string, std::string>> align_containers(const RunData& a, const SidePaths& pa,
                                                                  const RunData& b, const SidePaths& pb);

bool is_container_type(const std::string& type);

}  // namespace flopscope
