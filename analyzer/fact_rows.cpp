#include "analyzer/fact_rows.h"

#include "db/model/run_data.h"

namespace flopscope {

FactRows::FactRows(const RunData& run) {
  set_info(run.info);
  add_modules(run.modules);
  add_ops(run.ops);
  add_kernels(run.kernels);
  if (!run.raw_rows) {
    for (int iteration : run.aggregates.iterations) add_iteration(iteration);
  }
}

std::uint32_t FactRows::intern(const std::string& s) {
  if (s.empty()) return 0;
  auto it = text_ids_.find(s);
  if (it != text_ids_.end()) return it->second;
  const auto id = static_cast<std::uint32_t>(texts_.size());
  text_ids_.emplace(texts_.emplace_back(s), id);
  return id;
}

void FactRows::add_iteration(int iteration) {
  // Rows come in iteration order: keeping only changes keeps this list as short as the run's iterations.
  if (iterations_.empty() || iterations_.back() != iteration) iterations_.push_back(iteration);
}

void FactRows::add_modules(std::span<const ModuleRecord> modules) {
  modules_.insert(modules_.end(), modules.begin(), modules.end());
}

void FactRows::add_ops(std::span<const OpRecord> ops) {
  for (const OpRecord& op : ops) {
    FactOp& f = ops_.emplace_back();
    f.id = op.id;
    f.parent_op_id = op.parent_op_id;
    f.module_id = op.module_id;
    f.sequence = op.sequence;
    f.duration_ns = op.duration_ns;
    f.flops = op.flops;
    f.macs = op.macs;
    f.bytes_read = op.bytes_read;
    f.bytes_written = op.bytes_written;
    f.iteration = op.iteration;
    f.name = intern(op.name);
    // The note is read only for ops without a FLOPs source (coverage gaps).
    if (op.flops_source == FlopsSource::kNone) f.note = intern(op.flops_note);
    f.flops_source = op.flops_source;
    add_iteration(op.iteration);
  }
}

void FactRows::add_kernels(std::span<const KernelRecord> kernels) {
  for (const KernelRecord& k : kernels) {
    FactKernel& f = kernels_.emplace_back();
    f.stream = k.stream;
    f.start_ns = k.start_ns;
    f.duration_ns = k.duration_ns;
    f.op_id = k.op_id;
    f.module_id = k.module_id;
    f.device = k.device;
    f.iteration = k.iteration;
    f.category = categories_(k);
    if (k.has_counters) {
      f.counters = static_cast<std::int32_t>(counters_.size());
      counters_.emplace_back().add(k);
    }
    if (k.iteration >= 0) add_iteration(k.iteration);  // < 0: orphans, outside every iteration
  }
}

}  // namespace flopscope
