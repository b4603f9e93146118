// What `flopscope ablate` prints: the output change of the edited model and the work the ablated modules
// would save, as a table or JSON.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "analyzer/outputs/output_compare.h"
#include "collector/torch/ablation.h"

namespace flopscope::cli {

struct AblatedModuleCost {
  AblatedSite site;
  std::string type;
  // Inclusive cost per iteration in the profile of the unedited model.
  double flops = 0;
  double bytes = 0;
  double time_p50_ns = 0;
};

struct AblationGate {
  double max_output_change = 0;
  int exit_code = 0;  // 0 passed, 1 over the limit or NaN/Inf, 2 not comparable
  std::string text;   // "passed: max relative change 2.1e-08 (output 0), limit 1e-05", ...
};

struct AblationReport {
  std::string model_path;
  std::string inputs;                      // "--input int64[1,64]@0:512", or "3 request file(s)"
  std::vector<AblatedModuleCost> modules;  // outermost ablated instances; their descendants are not counted
  std::vector<std::string> still_running;
  int opaque_calls = 0;  // AblationRun::opaque_calls
  OutputComparison outputs;
  // The unedited model per iteration, in the same profile (the shares' denominators).
  int profile_iterations = 0;
  double total_flops = 0, total_bytes = 0, total_time_p50_ns = 0;
  std::optional<AblationGate> gate;
};

// The gate of `--max-output-change X` on a comparison: diff's gate (analyzer/diff/gates.h).
AblationGate output_change_gate(const OutputComparison& c, double max_output_change);

std::string render_ablation_table(const AblationReport& r);
nlohmann::ordered_json ablation_json(const AblationReport& r);
// The comparison as JSON: per tensor max |Δ|, relative change, RMS, cosine, top-1, NaN/Inf.
nlohmann::ordered_json output_comparison_json(const OutputComparison& c);

}  // namespace flopscope::cli
