// summarize() for a run read without its op and kernel rows: module costs and per-iteration times from the
// aggregates stored with it (schema 007). What needs the rows themselves (calls, top ops, coverage, the
// timeline, kernel attribution) stays empty; RunSummary::from_aggregates says so.
#include "analyzer/iterations.h"
#include "analyzer/summary_tree.h"
#include "analyzer/tensor_factor.h"

namespace flopscope {

RunSummary summarize_aggregates(const RunData& run, const SummaryOptions& options) {
  RunSummary s;
  s.info = run.info;
  s.tensor_factor = tensor_pipe_factor(run.info.device);
  s.from_aggregates = true;
  std::unordered_map<Id, int> index_of;
  s.modules = build_module_tree(run.modules, index_of);
  s.index_paths();
  const IterationIndex iter_index(run);
  s.iterations = iter_index.count();
  ModuleAccumulators acc(s.modules.size(), static_cast<std::size_t>(s.iterations));
  const double tensor_factor = s.tensor_factor ? s.tensor_factor->flops_per_instruction : 0;
  for (const ModuleAggregate& a : run.aggregates.modules) {
    auto found = index_of.find(a.module_id);
    const auto m = static_cast<std::size_t>(found == index_of.end() ? 0 : found->second);
    Cost& c = s.modules[m].self;
    c.ops += static_cast<double>(a.ops);
    c.flops += a.flops;
    c.macs += a.macs;
    c.bytes_read += a.bytes_read;
    c.bytes_written += a.bytes_written;
    c.kernels += static_cast<double>(a.kernels);
    add_measured(c, a.measured, tensor_factor);
    for (const auto& [it, ns] : a.host_ns) acc.self_time[m].add(iter_index(it), static_cast<double>(ns));
    for (const auto& [it, ns] : a.device_ns) acc.gpu_time[m].add(iter_index(it), static_cast<double>(ns));
    s.ops_total += a.ops;
    s.ops_with_formula += a.ops_with_formula;
    s.orphans.kernels += a.orphan_kernels;
    s.orphans.time_ns += static_cast<double>(a.orphan_ns);
    if (a.kernels > 0 || a.orphan_kernels > 0) s.has_kernels = true;
  }
  s.quality = run.quality;
  roll_up_modules(s, std::move(acc), run, options);
  return s;
}

}  // namespace flopscope
