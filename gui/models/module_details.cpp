#include "gui/models/module_details.h"

namespace flopscope::gui {

ModuleDetails module_details(const RunData& run, const RunSummary& summary, const std::string& path) {
  ModuleDetails d;
  d.path = path;
  Id id = kNoId;
  for (const auto& m : run.modules)
    if (m.path == path) id = m.id;
  if (id == kNoId) return d;
  d.found = true;
  for (OpGroup& g : group_ops(run, summary.iterations, summary.peak))
    if (g.module_path == path) d.ops.push_back(std::move(g));
  d.kernels = kernel_table(run, id);
  for (const auto& p : run.params)
    if (p.module_id == id) d.params.push_back(p);
  return d;
}

}  // namespace flopscope::gui
