// What the detail pane shows for one module: its ops as the core groups them (`report --format json`
// op_groups), its kernels as `report --kernels` lists them, and its parameters with their weight status.
// Computed on demand from the run's records.
#pragma once

#include <string>
#include <vector>

#include "analyzer/kernel_table.h"
#include "analyzer/op_groups.h"
#include "analyzer/summary.h"
#include "db/model/run_data.h"

namespace flopscope::gui {

struct ModuleDetails {
  std::string path;
  bool found = false;
  std::vector<OpGroup> ops;  // the core's op groups of this module, in the core's (first-seen) order
  // Kernels attributed to this module: the core's kernel table (`report --kernels`) of its kernels, by time.
  std::vector<KernelRow> kernels;
  std::vector<ParamRecord> params;
};

ModuleDetails module_details(const RunData& run, const RunSummary& summary, const std::string& path);

}  // namespace flopscope::gui
