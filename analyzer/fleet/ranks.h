// One distributed run from its per-rank parts (run.rank<R>.db from `exec`, or one Kineto trace per rank):
// per module, the time of every rank with min / median / max and the straggler (the slowest rank); per
// rank, the iteration time, the communication time (NCCL kernels) and the compute time; and the load
// imbalance, max / mean - 1 of the ranks' iteration times. Times are device (kernel) time when every rank
// has kernels, else host op time; communication is known only on the device clock.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "analyzer/summary.h"
#include "db/model/run_data.h"
#include "db/model/status.h"

namespace flopscope {

struct RankPart {
  int rank = 0;
  std::string path;
  RunData run;
};

// The rank of a part: the trace's distributedInfo.rank when it has one, else "rank<R>", "rank-<R>" or
// "rank_<R>" in the file name. Fails when neither says.
StatusOr<int> rank_of_file(const std::string& path);

struct RankSpread {
  double min = 0, median = 0, max = 0;
  int straggler = -1;    // rank with the max
  double imbalance = 0;  // max / mean - 1
};

struct RankModuleRow {
  std::string path;
  std::string type;
  int depth = 0;
  std::vector<std::optional<double>>
      time_p50;               // per rank (in RankReport::ranks order); absent: no such module
  std::vector<double> flops;  // per rank, per iteration
  RankSpread time;
};

struct RankTotals {
  int rank = 0;
  std::string path;
  int iterations = 0;
  double time_p50 = 0;               // iteration time per the report's clock
  std::optional<double> comm_ns;     // NCCL kernel time per iteration (device clock only)
  std::optional<double> compute_ns;  // other kernel time per iteration
  double flops = 0;
  std::int64_t comm_kernels = 0;
};

struct RankReport {
  bool device_clock = false;
  std::vector<RankTotals> ranks;  // by rank
  RankSpread iteration;           // over the ranks' iteration time P50
  std::optional<RankSpread> comm;
  std::vector<RankModuleRow> modules;  // in the first rank's module order, then modules only others have
  std::vector<std::string> warnings;
};

// The comparison of runs already summarised (RankAnalysis, analyzer/fleet/ranks_analysis.h, opens and
// summarises them); run and summary must outlive the call. Ranks must be distinct.
struct RankInput {
  int rank = 0;
  std::string path;
  const RunData* run = nullptr;
  const RunSummary* summary = nullptr;
};
StatusOr<RankReport> analyze_ranks(const std::vector<RankInput>& inputs);

// The report's headline lines, one wording for `flopscope report` and the GUI's Ranks tab (no newline):
// "straggler: rank 1 (iteration time P50 ...; median ..., fastest ...); load imbalance +2.0% (max / mean -
// 1)"
std::string straggler_line(const RankReport& r);
// "communication: NCCL kernel time per iteration min ... / median ... / max ... (rank R)", or unknown.
std::string communication_line(const RankReport& r);
// "device (kernel) time per iteration" or "host op time per iteration".
std::string rank_clock_name(const RankReport& r);

// True for kernels of collective communication (NCCL / RCCL).
bool is_comm_kernel(const std::string& name);

}  // namespace flopscope
