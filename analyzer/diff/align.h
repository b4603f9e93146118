// Path rewriting per side of a diff: the user's maps (--map both sides, --map-a, --map-b), then the
// structural alignment of container children (ModuleList, Sequential, ModuleDict), which renames B's
// children to the A child they match, so that removing `blocks.1` makes `blocks.2` of A meet `blocks.1`
// of B instead of shifting the blame onto every later index.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "analyzer/diff/diff.h"
#include "analyzer/module_types.h"

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

// The same for two sets of parameters without modules (weights files): the module tree their dotted names
// imply, a module whose children are all numbered taken as a ModuleList. Keys and values are module paths.
std::vector<std::pair<std::string, std::string>> align_param_trees(const std::vector<ParamRecord>& a,
                                                                   const SidePaths& pa,
                                                                   const std::vector<ParamRecord>& b,
                                                                   const SidePaths& pb);

// Both sides' paths for a comparison: the user's maps (options.maps, then maps_a / maps_b), then, with
// options.align_containers, B's container alignment. `recorded`: one line per map and alignment rename
// ("A: ...", "B: ...", "B aligned: blocks.2 -> blocks.1"), which every report lists.
struct DiffPaths {
  SidePaths a, b;
  std::vector<std::string> recorded;
};
DiffPaths diff_paths(const RunData& a, const RunData& b, const DiffOptions& options);
// The same for two weights files' tensors (align_param_trees).
DiffPaths weights_diff_paths(const std::vector<ParamRecord>& a, const std::vector<ParamRecord>& b,
                             const DiffOptions& options);

}  // namespace flopscope
