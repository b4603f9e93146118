#include "analyzer/kernel_table.h"

#include <algorithm>
#include <unordered_map>

#include "analyzer/format.h"
#include "analyzer/tensor_factor.h"
#include "analyzer/timeline.h"

namespace flopscope {

std::vector<KernelRow> kernel_table(const RunData& run, std::optional<Id> module) {
  const auto factor = tensor_pipe_factor(run.info.device);
  const double tensor_factor = factor ? factor->flops_per_instruction : 0;
  std::unordered_map<Id, std::size_t> op_at;
  for (std::size_t i = 0; i < run.ops.size(); ++i) op_at[run.ops[i].id] = i;
  std::unordered_map<Id, const std::string*> path_of;
  for (const auto& m : run.modules) path_of[m.id] = &m.path;
  std::unordered_map<Id, int> kernels_of_op;
  for (const auto& k : run.kernels) {
    if (k.op_id != kNoId) ++kernels_of_op[k.op_id];
  }
  std::vector<KernelRow> rows;
  std::unordered_map<std::string, std::size_t> index;
  for (const auto& k : run.kernels) {
    if (module && k.module_id != *module) continue;
    auto [it, added] = index.try_emplace(k.name, rows.size());
    if (added) {
      KernelRow r;
      r.name = k.name;
      r.category = to_string(kernel_category(k));
      r.grid = k.grid;
      r.block = k.block;
      auto p = path_of.find(k.module_id);
      r.module_path = p == path_of.end() ? "" : *p->second;
      rows.push_back(std::move(r));
    }
    KernelRow& r = rows[it->second];
    r.count += 1;
    r.device_time_ns += static_cast<double>(k.duration_ns);
    if (k.grid != r.grid || k.block != r.block) r.launch_config_varies = true;
    auto p = path_of.find(k.module_id);
    if ((p == path_of.end() ? std::string() : *p->second) != r.module_path) r.module_path = "(several)";
    r.has_counters = r.has_counters || k.has_counters;
    r.measured.add(k);
    auto o = k.op_id == kNoId ? op_at.end() : op_at.find(k.op_id);
    if (k.kind != KernelKind::kKernel) {  // copies and memsets: no FLOPs; their bytes are the copy size
      r.bytes += k.bytes;
      continue;
    }
    if (o == op_at.end() || run.ops[o->second].flops_source == FlopsSource::kNone) {
      r.unknown_count += 1;
      continue;
    }
    const OpRecord& op = run.ops[o->second];
    const double share = 1.0 / kernels_of_op[k.op_id];
    r.flops += op.flops * share;
    r.bytes += (op.bytes_read + op.bytes_written) * share;
  }
  // As summarize() does (add_measured): the factors are 0 or powers of two, so the sum times the factor
  // equals the per-kernel products summed.
  for (KernelRow& r : rows) r.tensor_flops = r.measured.tensor_inst * tensor_factor;
  std::sort(rows.begin(), rows.end(),
            [](const KernelRow& a, const KernelRow& b) { return a.device_time_ns > b.device_time_ns; });
  return rows;
}

std::string kernel_work_text(const KernelRow& row, double value) {
  if (row.category != "compute" || row.unknown_count == 0) return si_text(value, "");
  return row.unknown_count == row.count ? "unknown" : ">=" + si_text(value, "");
}

}  // namespace flopscope
