#include "analyzer/kernel_table.h"

#include <algorithm>
#include <unordered_map>

#include "analyzer/format.h"
#include "analyzer/tensor_factor.h"
#include "analyzer/timeline.h"

namespace flopscope {

namespace {

// Which counted op each compute kernel carries the work of: the op that launched it, or the nearest op above
// it counted toward totals (an aten::addmm's GEMM carries the count of the aten::linear around it, as the
// totals do), and how many compute kernels share each such op. Copies and memsets carry none: their bytes
// are their own copy size.
struct KernelWork {
  std::unordered_map<Id, std::size_t> op_at;
  std::vector<std::int64_t> counted_of_kernel;  // index into run.ops, -1: no counted op (unknown)
  std::unordered_map<std::size_t, int> compute_kernels_of;

  explicit KernelWork(const RunData& run) {
    for (std::size_t i = 0; i < run.ops.size(); ++i) op_at[run.ops[i].id] = i;
    counted_of_kernel.assign(run.kernels.size(), -1);
    for (std::size_t i = 0; i < run.kernels.size(); ++i) {
      const KernelRecord& k = run.kernels[i];
      if (k.kind != KernelKind::kKernel) continue;
      const std::int64_t counted = counted_op(run, k.op_id);
      counted_of_kernel[i] = counted;
      if (counted >= 0) ++compute_kernels_of[static_cast<std::size_t>(counted)];
    }
  }

  std::int64_t counted_op(const RunData& run, Id id) const {
    for (int guard = 0; id != kNoId && guard < 4096; ++guard) {
      auto it = op_at.find(id);
      if (it == op_at.end()) return -1;
      const OpRecord& op = run.ops[it->second];
      if (counts_toward_totals(op)) return static_cast<std::int64_t>(it->second);
      id = op.parent_op_id;
    }
    return -1;
  }
};

}  // namespace

KernelWorkTotals kernel_work_totals(const RunData& run) {
  const KernelWork work(run);
  KernelWorkTotals t;
  for (std::size_t i = 0; i < run.ops.size(); ++i) {
    const OpRecord& op = run.ops[i];
    if (!counts_toward_totals(op)) continue;
    const double bytes = op.bytes_read + op.bytes_written;
    t.op_flops += op.flops;
    t.op_bytes += bytes;
    if (work.compute_kernels_of.contains(i)) {
      t.on_kernels_flops += op.flops;
      t.on_kernels_bytes += bytes;
    } else {
      t.without_kernel_flops += op.flops;
      t.without_kernel_bytes += bytes;
      ++t.ops_without_kernel;
    }
  }
  return t;
}

std::vector<KernelRow> kernel_table(const RunData& run, std::optional<Id> module) {
  const auto factor = tensor_pipe_factor(run.info.device);
  const double tensor_factor = factor ? factor->flops_per_instruction : 0;
  const KernelWork work(run);
  std::unordered_map<Id, const std::string*> path_of;
  for (const auto& m : run.modules) path_of[m.id] = &m.path;
  std::vector<KernelRow> rows;
  std::unordered_map<std::string, std::size_t> index;
  for (std::size_t ki = 0; ki < run.kernels.size(); ++ki) {
    const KernelRecord& k = run.kernels[ki];
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
    if (k.kind != KernelKind::kKernel) {  // copies and memsets: no FLOPs; their bytes are the copy size
      r.bytes += k.bytes;
      continue;
    }
    const std::int64_t counted = work.counted_of_kernel[ki];
    if (counted < 0) {
      r.unknown_count += 1;
      continue;
    }
    const OpRecord& op = run.ops[static_cast<std::size_t>(counted)];
    const double share = 1.0 / work.compute_kernels_of.at(static_cast<std::size_t>(counted));
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
