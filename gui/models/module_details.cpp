#include "gui/models/module_details.h"

#include <algorithm>
#include <unordered_map>

namespace flopscope::gui {

namespace {

std::vector<NamedCost> sorted(std::unordered_map<std::string, NamedCost>&& by_name) {
  std::vector<NamedCost> v;
  v.reserve(by_name.size());
  for (auto& [name, c] : by_name) v.push_back(std::move(c));
  std::sort(v.begin(), v.end(), [](const NamedCost& x, const NamedCost& y) {
    return x.time_ns != y.time_ns ? x.time_ns > y.time_ns : x.name < y.name;
  });
  return v;
}

}  // namespace

ModuleDetails module_details(const RunData& run, const std::string& path) {
  ModuleDetails d;
  d.path = path;
  Id id = kNoId;
  for (const auto& m : run.modules)
    if (m.path == path) id = m.id;
  if (id == kNoId) return d;
  d.found = true;
  std::unordered_map<Id, Id> op_module;  // parent op's module, to keep only ops this module called itself
  op_module.reserve(run.ops.size());
  for (const auto& op : run.ops) op_module.emplace(op.id, op.module_id);
  std::unordered_map<std::string, NamedCost> ops;
  for (const auto& op : run.ops) {
    if (op.module_id != id) continue;
    auto parent = op_module.find(op.parent_op_id);
    if (op.parent_op_id != kNoId && parent != op_module.end() && parent->second == id) continue;
    auto& c = ops[op.name];
    c.name = op.name;
    c.count += 1;
    c.time_ns += static_cast<double>(op.duration_ns);
    if (counts_toward_totals(op)) c.flops += op.flops;
  }
  d.ops = sorted(std::move(ops));
  d.kernels = kernel_table(run, id);
  for (const auto& p : run.params)
    if (p.module_id == id) d.params.push_back(p);
  return d;
}

}  // namespace flopscope::gui
