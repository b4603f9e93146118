// One row per kernel name: how often it ran, its device time, launch configuration, the analytic FLOPs and
// bytes of the op that launched it (shared among that op's kernels) and the measured counters, if any.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "db/model/measured_counters.h"
#include "db/model/run_data.h"

namespace flopscope {

struct KernelRow {
  std::string name;
  std::string category;  // compute, communication, memcpy, memset
  std::int64_t count = 0;
  double device_time_ns = 0;  // whole run, orphans included
  std::array<int, 3> grid{0, 0, 0};
  std::array<int, 3> block{0, 0, 0};
  bool launch_config_varies = false;
  // Analytic work of the launching ops, each op's FLOPs and bytes divided evenly among its kernels; the
  // share of the kernels whose op has no formula (unknown) is counted in unknown_count.
  double flops = 0;
  double bytes = 0;
  std::int64_t unknown_count = 0;
  bool has_counters = false;
  // Summed counters; tensor_inst is sm__inst_executed_pipe_tensor.sum: tensor-pipe *instructions*, not
  // FLOPs (the FLOPs per instruction depend on the architecture and the instruction shape).
  MeasuredCounters measured;
  double tensor_flops = 0;  // measured.tensor_inst x the factor of analyzer/tensor_factor, else 0
  std::string module_path;  // of the first kernel; "(several)" when they differ
};

// Sorted by device time, largest first. With a module: only the kernels attributed to it (a module's own
// kernels, as the GUI's detail pane lists them), their launching ops' work shared the same way.
std::vector<KernelRow> kernel_table(const RunData& run, std::optional<Id> module = std::nullopt);

// A row's analytic FLOPs or bytes as every front end prints them: the number, ">=N" when only some of a
// compute kernel's launching ops have a formula (a lower bound), "unknown" when none has.
std::string kernel_work_text(const KernelRow& row, double value);

}  // namespace flopscope
