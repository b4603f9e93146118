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
ExpositionSource exposition_from_params(const std::vector<ParamRecord>& params, const std::string& source);

}  // namespace flopscope
