// `report --kernels`: the per-kernel-name table (analysis in analyzer/kernel_table).
#include <fmt/format.h>

#include "analyzer/format.h"
#include "analyzer/kernel_table.h"
#include "cli/printers/report.h"
#include "cli/printers/units.h"

namespace flopscope::cli {
namespace {

// "-" when the trace has no launch configuration (copies and memsets have none; some traces omit it).
std::string dim3(const std::array<int, 3>& d) {
  if (d[0] == 0 && d[1] == 0 && d[2] == 0) return "-";
  return fmt::format("{}x{}x{}", d[0], d[1], d[2]);
}

}  // namespace

std::string render_kernels_table(const RunData& run, std::size_t limit) {
  auto rows = kernel_table(run);
  constexpr const char* kRow =
      "{:<48} {:<13} {:>7} {:>11} {:>14} {:>12} {:>10} {:>10} {:>10} {:>10} {:>15} {:>11}  {}\n";
  std::string out =
      "\nkernels by device time, totals over the whole run (every iteration, and kernels outside them) "
      "(FLOPs and bytes: the analytic count of the op that launched them, or of the op around it that the "
      "totals count, shared among its compute kernels; copies and memsets: their own size; measured: "
      "hardware counters; tensor inst: tensor-pipe instructions, not FLOPs)\n";
  out += fmt::format(fmt::runtime(kRow), "kernel", "kind", "count", "dev time", "grid", "block", "FLOPs",
                     "bytes", "meas FLOPs", "DRAM B", "DRAM read/wr", "tensor inst", "module");
  std::vector<std::string> names;
  for (std::size_t i = 0; i < rows.size() && i < limit; ++i) names.push_back(rows[i].name);
  names = elide_distinct(names, 48);  // two GEMMs that differ in their tile sizes stay two names
  for (std::size_t i = 0; i < rows.size() && i < limit; ++i) {
    const auto& r = rows[i];
    // DRAM read/written: the split when measured; "total only" when a kernel measured only dram__bytes.sum.
    const MeasuredCounters& c = r.measured;
    std::string split = c.dram_unsplit > 0 ? "total only"
                        : c.dram_read + c.dram_written > 0
                            ? si_text(c.dram_read, "") + "/" + si_text(c.dram_written, "")
                            : "-";
    out += fmt::format(
        fmt::runtime(kRow), names[i], r.category, r.count, time_text(r.device_time_ns),
        dim3(r.grid) + (r.launch_config_varies ? "*" : ""), dim3(r.block), kernel_work_text(r, r.flops),
        kernel_work_text(r, r.bytes), r.has_counters ? si_text(c.flops, "") : "-",
        r.has_counters ? si_text(c.dram_bytes, "") : "-", split,
        r.has_counters ? si_text(c.tensor_inst, "") : "-", r.module_path.empty() ? "(model)" : r.module_path);
  }
  if (rows.size() > limit) out += fmt::format("... {} more kernel names\n", rows.size() - limit);
  out += "(* launch configuration varies between calls; the first is shown)\n";
  // The table and the op totals are one amount of work: say where the part without a kernel went.
  const KernelWorkTotals t = kernel_work_totals(run);
  out += fmt::format(
      "work, all iterations: {} on compute kernels + {} in {} op{} that launched none (host-side ops, ops "
      "with only copies) = {} counted by the op totals\n",
      si_text(t.on_kernels_flops, "FLOPs"), si_text(t.without_kernel_flops, "FLOPs"), t.ops_without_kernel,
      t.ops_without_kernel == 1 ? "" : "s", si_text(t.op_flops, "FLOPs"));
  return out;
}

}  // namespace flopscope::cli
