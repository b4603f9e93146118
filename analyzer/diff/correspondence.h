// Which module of B is which module of A: an evidence-scored matching of each matched parent's children,
// solved as an optimal assignment. Evidence per pair: the name after the user's maps, the class (weak: a
// renamed class never decides), the subtree's parameter names and shapes, its weight contents (exact hashes,
// and sketches that survive fine-tuning), its compute per call, and its position among its siblings. A pair
// whose runner-up assignment (one that leaves other modules unmatched) scores within kAmbiguityMargin is not
// proof: those modules are AMBIGUOUS. A --map that matches a path declares that module's identity (pinned).
#pragma once

#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "analyzer/summary.h"
#include "db/model/run_data.h"

namespace flopscope {

struct SidePaths;

// Evidence of one A/B pair, in score units (the sum is the pair's score).
struct MatchEvidence {
  double name = 0;       // same name after the maps: 1
  double type = 0;       // same class: 0.5
  double order = 0;      // same relative position among siblings: up to 0.3
  double structure = 0;  // subtree parameter names and shapes, and module paths: up to 4 (Jaccard)
  double weights = 0;    // subtree weight contents: up to 6 (exact 1, similar ~0.9-1 per tensor)
  double compute = 0;    // calls, ops and FLOPs per call equal: up to 1.5
  bool pinned = false;   // declared by a --map
  double total() const { return name + type + order + structure + weights + compute + (pinned ? 1000 : 0); }
};

// Alternatives that differ only in weak evidence (name, class, order: 1.8 at most) are not proof.
inline constexpr double kAmbiguityMargin = 2.0;

struct ModuleMatch {
  std::string a_path, b_path;  // A's path after its maps; B's path after its maps (before alignment)
  MatchEvidence evidence;
  double score = 0;
  // How much worse the best assignment is in which this module's fate differs (matched vs unmatched), or
  // infinity when there is none.
  double margin = 0;
  std::string runner_up;  // the partner of the best other assignment, "" when none ("(none)": unmatched)
};

// One set of modules whose correspondence is not decided by the evidence.
struct AmbiguousGroup {
  std::vector<std::string> a_paths;        // A's modules whose fate the alternatives swap
  std::vector<std::string> b_paths;        // B's modules involved (B's own paths after its maps)
  double margin = 0;                       // score difference between the two readings
  std::string chosen, alternative;         // each reading in words, e.g. "B blocks.1 = A blocks.1"
  std::vector<std::string> settle;         // --map-b options that declare the alternative reading
  std::vector<std::string> settle_chosen;  // and those that declare the chosen one
};

struct Correspondence {
  // B path after its maps -> A path, for every matched B module whose path differs, and "<path>@B" for an
  // unmatched B module whose name an A sibling has (it never joins that sibling by name).
  std::vector<std::pair<std::string, std::string>> renames;
  std::unordered_map<std::string, ModuleMatch> by_a_path;  // every matched pair but the roots
  std::vector<AmbiguousGroup> ambiguous;
  std::vector<std::string> warnings;
};

// Both runs' modules and parameters under their user maps (`pa`, `pb` with no renames); summaries give the
// compute evidence and may be null (weights files).
Correspondence match_modules(const RunData& a, const RunSummary* sa, const SidePaths& pa, const RunData& b,
                             const RunSummary* sb, const SidePaths& pb);

}  // namespace flopscope
