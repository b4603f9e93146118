// Runs built in code for the GUI tests, screenshots and benchmark: a sonnet-mini-like transformer (v1 with
// layers.N.attn.position_adaptive_bias, v2 without it, v2z with its weights zeroed), with ops, kernels,
// parameters and a computation graph over several iterations; and a synthetic run of N kernels.
#pragma once

#include <string>

#include "db/model/run_data.h"

namespace flopscope::gui::testing {

enum class Variant { kV1, kV2, kV2z };

struct FixtureOptions {
  Variant variant = Variant::kV1;
  int layers = 2;
  int iterations = 12;
  bool kernels = true;
  unsigned seed = 1;
};

RunData sonnet_run(const FixtureOptions& options);

// A run with `kernels` kernels spread over modules and iterations (one op launches each kernel).
RunData large_run(std::size_t kernels, int iterations = 50);

// Writes a run to a new run database at path (replacing it).
void write_database(const RunData& run, const std::string& path);

}  // namespace flopscope::gui::testing
