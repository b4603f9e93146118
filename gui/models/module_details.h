// What the detail pane shows for one module: its own ops and kernels grouped by name, and its parameters
// with their weight status. Computed on demand from the run's records.
#pragma once

#include <string>
#include <vector>

#include "analyzer/kernel_table.h"
#include "db/model/run_data.h"

namespace flopscope::gui {

struct NamedCost {
  std::string name;
  std::int64_t count = 0;  // over the whole run
  double time_ns = 0;      // total over the whole run
  double flops = 0;        // total over the whole run (ops that count toward totals)
};

struct ModuleDetails {
  std::string path;
  bool found = false;
  std::vector<NamedCost> ops;  // outermost ops of this module (depth-first children excluded), by time
  // Kernels attributed to this module: the core's kernel table (`report --kernels`) of its kernels, by time.
  std::vector<KernelRow> kernels;
  std::vector<ParamRecord> params;
};

ModuleDetails module_details(const RunData& run, const std::string& path);

}  // namespace flopscope::gui
