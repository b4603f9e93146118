// What a fleet store keeps of a run (see analyzer/fleet/fleet_run.h, which builds it) and what it returns.
// Plain records, no libpq types.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "db/model/records.h"

namespace flopscope {

// Quantiles of one clock's time per iteration, in nanoseconds; unknown when the run has no such clock
// (device time of a CPU-only run), never 0.
struct FleetQuantiles {
  bool known = false;
  double p50 = 0, p90 = 0, p99 = 0;
};

struct FleetModuleRow {
  std::string path;  // "" for the whole model
  std::string type;
  int depth = 0;
  double calls = 0, flops = 0, bytes = 0;  // per iteration, inclusive
  FleetQuantiles host, device;
  std::string weight_state;  // "ACTIVE", "ZEROED", "ERASED" (all placeholders) or "" (owns no parameters)
  std::int64_t params = 0, param_bytes = 0;
};

struct FleetOpRow {
  std::string module_path, name, signature;
  double calls = 0, flops = 0, bytes = 0;  // per iteration
  bool flops_known = true;
  FleetQuantiles host, device;
};

struct FleetParamRow {
  std::string name, dtype, shape, state, sha256;
  std::int64_t numel = 0, bytes = 0;
  double max_abs = 0, nonzero_fraction = 0, l2 = 0;
};

struct FleetRun {
  RunInfo info;
  int iterations = 0;
  bool has_kernels = false;
  double flops = 0, bytes = 0;          // per iteration
  FleetQuantiles host, device;          // end-to-end time per iteration
  std::vector<FleetModuleRow> modules;  // pre-order
  std::vector<FleetOpRow> ops;
  std::vector<FleetParamRow> params;
  // SHA-256 of everything above: the same run summarised twice has the same key.
  std::string content_key;
};

// Where a stored run came from, as `history` and `diff --baseline` name it.
struct StoredRunHeader {
  std::int64_t id = 0;    // the store's run id (push order)
  std::string pushed_at;  // UTC, "YYYY-MM-DD HH:MM:SS"
  std::string git_commit, git_branch, machine, model_sha256, tool_version, source_path;
  int iterations = 0;
  bool has_kernels = false;
  FleetQuantiles host, device;  // end-to-end time per iteration
};

// One module of one stored run.
struct ModulePoint {
  std::int64_t run_id = 0;
  FleetModuleRow module;
};

}  // namespace flopscope
