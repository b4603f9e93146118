// The rank facade: the ranks of one distributed run, each opened as a RunAnalysis, and the core's
// comparison of them (analyzer/fleet/ranks). `flopscope report run.rank*.db` prints its report; the GUI's
// Ranks tab shows it and its other views show one rank's analysis.
#pragma once

#include <cstddef>
#include <functional>
#include <string>
#include <vector>

#include "analyzer/analysis/run_analysis.h"
#include "analyzer/fleet/ranks.h"
#include "db/model/status.h"

namespace flopscope {

// Called with each part as it is read (index among `count` parts), before it is analysed: a front end
// reports progress there, or completes the run (the GUI extracts the graph); an error stops the opening.
using RankPartHook = std::function<Status(std::size_t index, std::size_t count, RankPart& part)>;

class RankAnalysis {
 public:
  // The parts the arguments name (rank files, or a folder of them: analyzer/fleet/rank_parts.h).
  static StatusOr<RankAnalysis> open(const std::vector<std::string>& args, const RankPartHook& hook = {});
  // Parts already read; ranks must be distinct.
  static StatusOr<RankAnalysis> of(std::vector<RankPart> parts);

  // One analysis per rank, in report().ranks order (by rank).
  const std::vector<RunAnalysis>& ranks() const { return ranks_; }
  const RankReport& report() const { return report_; }

 private:
  std::vector<RunAnalysis> ranks_;
  RankReport report_;
};

}  // namespace flopscope
