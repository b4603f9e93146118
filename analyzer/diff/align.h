// Path rewriting per side of a diff: the user's maps (--map both sides, --map-a, --map-b), then the
// renames of B's modules to the A modules they were matched with (correspondence.h), so that removing
// `blocks.1` makes `blocks.2` of A meet `blocks.1` of B instead of shifting the blame onto every later index.
#pragma once

#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "analyzer/diff/correspondence.h"
#include "analyzer/diff/diff.h"
#include "analyzer/module_types.h"

namespace flopscope {

struct SidePaths {
  std::vector<PathMap> maps;  // applied first, in order
  // maps[i] for i >= one_sided_from came from --map-a / --map-b: one that matches a module (and not its
  // parent) declares that module's identity, which the matching then takes as given.
  std::size_t one_sided_from = 0;
  std::string operator()(const std::string& path) const;
  // Whole-component prefix renames applied after the maps: the longest matching key wins, applied once (the
  // first of equal keys). Looked up by each of a path's prefixes, so a path costs its depth, not the number
  // of renames (thousands when a diff pairs long ModuleLists).
  void set_renames(std::vector<std::pair<std::string, std::string>> renames);
  const std::vector<std::pair<std::string, std::string>>& renames() const { return renames_; }

 private:
  std::vector<std::pair<std::string, std::string>> renames_;
  std::unordered_map<std::string, std::size_t> rename_of_;  // key -> its first entry in renames_
};

// Both sides' paths for a comparison: the user's maps (options.maps, then maps_a / maps_b), then, with
// options.align_containers, B's renames from the evidence-scored module matching (correspondence.h).
// `recorded`: one line per map and alignment rename ("A: ...", "B: ...", "B aligned: blocks.2 -> blocks.1"),
// which every report lists. Summaries give the matching its compute evidence (null: weights only).
struct DiffPaths {
  SidePaths a, b;
  std::vector<std::string> recorded;
  Correspondence matches;
};
DiffPaths diff_paths(const RunData& a, const RunData& b, const DiffOptions& options,
                     const RunSummary* summary_a = nullptr, const RunSummary* summary_b = nullptr);
// The same for two weights files' tensors: the module tree their dotted names imply.
DiffPaths weights_diff_paths(const std::vector<ParamRecord>& a, const std::vector<ParamRecord>& b,
                             const DiffOptions& options);

}  // namespace flopscope
