#include "analyzer/summary_facts_sink.h"

#include <future>

#include "analyzer/summary.h"

namespace flopscope {

Status write_run_with_facts(RunSink& sink, const RunData& run) {
  std::future<SummaryFacts> facts = std::async(std::launch::async, [&run] { return summary_facts(run); });
  // The rows go in while the facts are derived; the future is waited for on every path out.
  const Status rows = write_rows(sink, run);
  SummaryFacts f = facts.get();
  FS_RETURN_IF_ERROR(rows);
  FS_RETURN_IF_ERROR(sink.add_summary_facts(f));
  return sink.finish();
}

Status SummaryFactsSink::begin(const RunInfo& info) {
  rows_.info = info;
  return inner_.begin(info);
}

Status SummaryFactsSink::add_modules(std::span<const ModuleRecord> modules) {
  FS_RETURN_IF_ERROR(inner_.add_modules(modules));
  rows_.modules.insert(rows_.modules.end(), modules.begin(), modules.end());
  return {};
}

Status SummaryFactsSink::add_ops(std::span<const OpRecord> ops) {
  FS_RETURN_IF_ERROR(inner_.add_ops(ops));
  for (const OpRecord& op : ops) {
    // The facts never read arguments, and read the note only of ops without a FLOPs source (coverage gaps).
    OpRecord& lean = rows_.ops.emplace_back();
    lean.id = op.id;
    lean.iteration = op.iteration;
    lean.sequence = op.sequence;
    lean.name = op.name;
    lean.duration_ns = op.duration_ns;
    lean.module_id = op.module_id;
    lean.parent_op_id = op.parent_op_id;
    lean.flops = op.flops;
    lean.macs = op.macs;
    lean.bytes_read = op.bytes_read;
    lean.bytes_written = op.bytes_written;
    lean.flops_source = op.flops_source;
    if (op.flops_source == FlopsSource::kNone) lean.flops_note = op.flops_note;
  }
  return {};
}

Status SummaryFactsSink::add_kernels(std::span<const KernelRecord> kernels) {
  FS_RETURN_IF_ERROR(inner_.add_kernels(kernels));
  rows_.kernels.insert(rows_.kernels.end(), kernels.begin(), kernels.end());
  return {};
}

Status SummaryFactsSink::finish() {
  SummaryFacts facts = summary_facts(rows_);
  rows_ = {};
  FS_RETURN_IF_ERROR(inner_.add_summary_facts(facts));
  return inner_.finish();
}

}  // namespace flopscope
