// Runs of a small "sonnet-like" model built in memory: v1 has layers.N.attn.position_adaptive_bias,
// v2 has neither the module nor its weights, v2z runs it with zeroed weights.
#pragma once

#include <string>
#include <vector>

#include "db/model/run_data.h"

namespace flopscope::testing {

enum class Variant { kV1, kV2, kV2z };

struct FixtureOptions {
  int iterations = 8;
  int layers = 2;
  double time_scale = 1.0;                  // multiplies every op duration in B-like runs
  double flops_scale = 1.0;                 // multiplies every op's FLOPs
  std::string prefix;                       // prepended to every module path and parameter name ("model.")
  bool bias_params_without_module = false;  // v2 with the bias weights left in the checkpoint
  // Iterations split in order over this many processes (trace --repeat), recorded in
  // iteration_processes when > 1.
  int processes = 1;
  // Between-process variance: process p's ops take process_levels[p] times as long (empty: 1).
  std::vector<double> process_levels;
};

RunData make_run(Variant v, const FixtureOptions& o = {});

}  // namespace flopscope::testing
