#include "analyzer/fleet/ranks_analysis.h"

#include <algorithm>
#include <utility>

#include "analyzer/fleet/rank_parts.h"

namespace flopscope {

StatusOr<RankAnalysis> RankAnalysis::open(const std::vector<std::string>& args, const RankPartHook& hook) {
  FS_ASSIGN_OR_RETURN(std::vector<std::string> files, rank_part_files(args));
  std::vector<RankPart> parts;
  for (std::size_t i = 0; i < files.size(); ++i) {
    FS_ASSIGN_OR_RETURN(RankPart part, open_rank_part(files[i]));
    if (hook) FS_RETURN_IF_ERROR(hook(i, files.size(), part));
    parts.push_back(std::move(part));
  }
  return of(std::move(parts));
}

StatusOr<RankAnalysis> RankAnalysis::of(std::vector<RankPart> parts) {
  std::vector<int> ids;
  std::vector<RunAnalysis> runs;
  for (auto& p : parts) {
    ids.push_back(p.rank);
    runs.push_back(RunAnalysis::of(std::move(p.run), p.path));
  }
  std::vector<RankInput> inputs;
  for (std::size_t i = 0; i < runs.size(); ++i)
    inputs.push_back(RankInput{ids[i], runs[i].label(), &runs[i].run(), &runs[i].summary()});
  RankAnalysis r;
  FS_ASSIGN_OR_RETURN(r.report_, analyze_ranks(inputs));
  for (const auto& t : r.report_.ranks) {
    for (std::size_t i = 0; i < runs.size(); ++i)
      if (ids[i] == t.rank) r.ranks_.push_back(runs[i]);
  }
  return r;
}

}  // namespace flopscope
