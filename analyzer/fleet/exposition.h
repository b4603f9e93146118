// Metrics in the Prometheus text exposition format (version 0.0.4) for `flopscope exporter`: per module
// the weight state as a gauge with a `state` label (1 for the module's state, 0 for the others, so a
// state change is a change of value, not a vanished series), FLOPs and bytes per iteration, latency
// quantiles per clock (summaries: `quantile` labels, no _sum or _count), elimination candidates, and per
// source whether it could be read. Label values are escaped as the format requires.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "db/fleet/fleet_records.h"

namespace flopscope {

struct ExposedCandidate {
  std::string module;
  std::string behaviour;  // "zero-like", "identity-like"
  double share_time = 0;
};

// What one source contributes. A weights file has states only (has_costs false); a run or a stored run
// has costs and latency too.
struct ExpositionSource {
  std::string kind;    // "weights", "run", "store", "diff"
  std::string source;  // file or store run, for the flopscope_source_info series
  // The source as configured (file, "A -> B", store URL without its password): flopscope_source_up's
  // label, which stays the same when a store's newest run changes. Empty: `source`.
  std::string input;
  // false: the source could not be read this time; only flopscope_source_up (0) is exported for it, the
  // other sources' series are served as usual.
  bool up = true;
  bool has_costs = false;
  std::vector<FleetModuleRow> modules;
  FleetQuantiles host, device;  // end to end, per iteration
  int iterations = 0;           // behind the quantiles: P90/P99 are exported only when enough back them
  bool has_candidates = false;  // the run was recorded with activations
  std::vector<ExposedCandidate> candidates;
  // A diff of two runs (kind "diff"): whether their outputs were compared on the same inputs and what
  // changed, the figure `flopscope diff` gates with --max-output-change / --min-top1-agreement.
  bool is_diff = false;
  bool outputs_compared = false;
  double output_max_rel_change = -1;  // -1: not known (not compared, or only summaries that differ)
  std::int64_t top1_agree = 0, top1_total = 0;
  bool outputs_non_finite = false;
};

// A source that could not be read: flopscope_source_up 0 and nothing else.
ExpositionSource exposition_source_down(std::string kind, std::string input);

std::string prometheus_label_escape(const std::string& value);
std::string render_exposition(const std::vector<ExpositionSource>& sources);

}  // namespace flopscope
