// The exporter's sources turned into what render_exposition() prints: a run (costs, latency, weights,
// candidates) or a weights file's parameters (weight states only).
#pragma once

#include <string>
#include <vector>

#include "analyzer/fleet/exposition.h"
#include "db/model/run_data.h"

namespace flopscope {

ExpositionSource exposition_from_run(const RunData& run, const std::string& source);

// Module states from parameters alone: every dotted prefix of a parameter name is a module.
// A diff of two runs: B's weight states and whether the outputs changed (runs stored with --save-outputs).
ExpositionSource exposition_from_diff(const RunData& a, const RunData& b, const std::string& source);
ExpositionSource exposition_from_params(const std::vector<ParamRecord>& params, const std::string& source);

}  // namespace flopscope
