#include "analyzer/fleet/exposition_sources.h"

#include <algorithm>

#include "analyzer/activations/candidates.h"
#include "analyzer/diff/weights_join.h"
#include "analyzer/fleet/fleet_run.h"
#include "analyzer/outputs/output_compare.h"

namespace flopscope {

ExpositionSource exposition_from_run(const RunData& run, const std::string& source) {
  RunSummary summary = summarize(run);
  FleetRun fleet = build_fleet_run(run, summary);
  ExpositionSource s;
  s.kind = "run";
  s.source = source;
  s.has_costs = true;
  s.modules = std::move(fleet.modules);
  s.host = fleet.host;
  s.device = fleet.device;
  s.iterations = fleet.iterations;
  CandidateReport candidates = find_candidates(run, summary);
  s.has_candidates = candidates.has_activations;
  for (const auto& c : candidates.candidates)
    s.candidates.push_back({c.path, to_string(c.kind), c.share_time});
  return s;
}

ExpositionSource exposition_from_diff(const RunData& a, const RunData& b, const std::string& source) {
  // B's weight states beside the comparison of the outputs (the diff engine's, as `flopscope diff` prints).
  ExpositionSource s = exposition_from_params(b.params, source);
  s.kind = "diff";
  s.is_diff = true;
  const OutputComparison o = compare_outputs(a.outputs, b.outputs);
  s.outputs_compared = o.status == OutputsStatus::kCompared;
  s.output_max_rel_change = o.max_rel_change ? *o.max_rel_change : -1;
  s.top1_agree = o.top1_agree;
  s.top1_total = o.top1_total;
  s.outputs_non_finite = o.non_finite;
  return s;
}

ExpositionSource exposition_from_params(const std::vector<ParamRecord>& params, const std::string& source) {
  RunData run;
  run.params = params;
  ParamIndex index = index_params(run, {}, 0);
  ExpositionSource s;
  s.kind = "weights";
  s.source = source;
  for (const auto& [path, side] : index.by_module) {
    if (side.state == WeightState::kNone) continue;
    FleetModuleRow m;
    m.path = path;
    m.weight_state = to_string(side.state);
    m.params = side.params;
    m.param_bytes = side.bytes;
    s.modules.push_back(std::move(m));
  }
  std::sort(s.modules.begin(), s.modules.end(), [](const auto& a, const auto& b) { return a.path < b.path; });
  return s;
}

}  // namespace flopscope
