// Ops grouped by stable identity: module path + op name + argument signature (shapes, dtypes, scalars).
// The report lists these so that every op's count can be checked against its shapes, and the diff matches
// ops across model versions by the same identity.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "analyzer/peaks.h"
#include "db/model/op_signature.h"
#include "db/model/run_data.h"

namespace flopscope {

struct OpGroup {
  std::string module_path;
  std::string name;
  std::string signature;  // e.g. "float32[1,64,128], float32[128,128], float32[128]"
  std::vector<OpArg> args;
  FlopsSource source = FlopsSource::kNone;
  int depth = 0;
  double calls = 0;  // per iteration
  // Per call:
  double flops = 0;
  double macs = 0;
  double bytes_read = 0;
  double bytes_written = 0;
  double time_ns = 0;         // host: mean inclusive duration
  double device_time_ns = 0;  // device: mean kernel time launched in the op's subtree (orphans excluded)
  Roofline rates;             // the op's FLOPs and bytes over device_time_ns, and the bound under the peak
  std::string note;
};

// Device time per op (index-aligned with run.ops): kernels launched by the op or by ops it called, whole run,
// orphan kernels excluded.
std::vector<double> kernel_time_per_op(const RunData& run);

// Groups in first-seen order. `iterations` divides counts into per-iteration calls (>= 1); `peak` (the
// summary's) gives each group's roofline bound.
std::vector<OpGroup> group_ops(const RunData& run, int iterations,
                               const std::optional<DevicePeak>& peak = std::nullopt);

}  // namespace flopscope
