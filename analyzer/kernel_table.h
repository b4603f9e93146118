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
  // Analytic work: each op counted toward totals (the launching op or the nearest counted op above it)
  // divides its FLOPs and bytes evenly among its compute kernels; copies and memsets carry only their own
  // copy size. Compute kernels with no counted op (unknown) are counted in unknown_count.
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

// How the counted ops' work (the totals every view shows) divides between the kernel table and the ops that
// launched no compute kernel (host-side ops, ops whose only kernels are copies): on_kernels + without_kernel
// equals the op totals, and the kernel table's compute rows sum to on_kernels. Whole run, all iterations.
struct KernelWorkTotals {
  double op_flops = 0, op_bytes = 0;
  double on_kernels_flops = 0, on_kernels_bytes = 0;
  double without_kernel_flops = 0, without_kernel_bytes = 0;
  std::int64_t ops_without_kernel = 0;
};
KernelWorkTotals kernel_work_totals(const RunData& run);

// Sorted by device time, largest first. With a module: only the kernels attributed to it (a module's own
// kernels, as the GUI's detail pane lists them), their launching ops' work shared the same way.
std::vector<KernelRow> kernel_table(const RunData& run, std::optional<Id> module = std::nullopt);

// A row's analytic FLOPs or bytes as every front end prints them: the number, ">=N" when only some of a
// compute kernel's launching ops have a formula (a lower bound), "unknown" when none has.
std::string kernel_work_text(const KernelRow& row, double value);

}  // namespace flopscope
