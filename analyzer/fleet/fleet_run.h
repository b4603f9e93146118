// A run reduced to what a fleet store keeps for history and baselines: per module and per op signature
// the calls, FLOPs and bytes per iteration and the P50/P90/P99 of host and device time per iteration,
// the weight state of every module and parameter, and the run's metadata. Pure function of a RunData.
#pragma once

#include "analyzer/summary.h"
#include "db/fleet/fleet_records.h"
#include "db/model/run_data.h"

namespace flopscope {

FleetQuantiles fleet_quantiles(const LatencyStats& stats, bool known);

// Also computes the content key: the SHA-256 of everything stored, so the same run summarised twice has the
// same key.
FleetRun build_fleet_run(const RunData& run, const RunSummary& summary);

}  // namespace flopscope
