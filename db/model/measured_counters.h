// Sums of kernels' measured hardware counters (Nsight Compute, CUPTI range profiling). One owner for how
// they add up: the writer's per-module aggregates (run_aggregates), summarize() from the rows and the
// per-kernel-name table all sum through add(), so a summary read from aggregates equals one from rows.
#pragma once

#include "db/model/records.h"

namespace flopscope {

struct MeasuredCounters {
  double flops = 0;       // flops_fp64 + fp32 + fp16
  double dram_bytes = 0;  // read + written: the measured total, or the split's sum (measured_dram_bytes)
  double dram_read = 0;   // the measured split, where the counters gave it
  double dram_written = 0;
  double dram_unsplit = 0;  // of dram_bytes, what was measured as a total only (read/written unknown)
  double tensor_inst = 0;   // tensor-pipe instructions (a count, not FLOPs)

  // Kernels without counters add nothing.
  void add(const KernelRecord& k) {
    if (!k.has_counters) return;
    flops += k.flops_fp64 + k.flops_fp32 + k.flops_fp16;
    dram_bytes += measured_dram_bytes(k);
    dram_read += k.dram_bytes_read;
    dram_written += k.dram_bytes_written;
    dram_unsplit += unsplit_dram_bytes(k);
    tensor_inst += k.tensor_pipe_inst;
  }
};

}  // namespace flopscope
