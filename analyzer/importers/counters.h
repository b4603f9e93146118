// Hardware counter names shared by the Kineto range profiler and Nsight Compute: which metric feeds which
// measured quantity. FLOPs per precision = add + mul + 2 * fma of the SASS thread-instruction counters.
#pragma once

#include <string_view>

#include "analyzer/importers/trace_builder.h"

namespace flopscope {

struct CounterSet {
  struct Ops {
    double add = 0, mul = 0, fma = 0;
    double flops() const { return add + mul + 2 * fma; }
  };
  Ops d, f, h;
  double tensor = 0, dram = 0, dram_read = 0, dram_write = 0, l2 = 0;
  bool any = false;

  // Takes a metric in base units; false when the name is not one of ours.
  bool take(std::string_view name, double value);
  TraceBuilder::Counters counters() const;
};

}  // namespace flopscope
