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
  rows_.set_info(info);
  return inner_.begin(info);
}

Status SummaryFactsSink::add_modules(std::span<const ModuleRecord> modules) {
  FS_RETURN_IF_ERROR(inner_.add_modules(modules));
  rows_.add_modules(modules);
  return {};
}

Status SummaryFactsSink::add_ops(std::span<const OpRecord> ops) {
  FS_RETURN_IF_ERROR(inner_.add_ops(ops));
  rows_.add_ops(ops);
  return {};
}

Status SummaryFactsSink::add_kernels(std::span<const KernelRecord> kernels) {
  FS_RETURN_IF_ERROR(inner_.add_kernels(kernels));
  rows_.add_kernels(kernels);
  return {};
}

Status SummaryFactsSink::finish() {
  facts_ = summary_facts(rows_);
  rows_ = {};
  FS_RETURN_IF_ERROR(inner_.add_summary_facts(facts_));
  return inner_.finish();
}

}  // namespace flopscope
