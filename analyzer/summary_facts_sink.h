// Computes a run's summary facts while it is written: every row goes on to the wrapped sink, and the compact
// part of it the facts read (FactRows) stays here until finish(), which derives the facts (summary_facts(),
// the one owner of those rules), gives them to the wrapped sink, then finishes it. A run written this way is
// reported without reading its op and kernel rows back.
#pragma once

#include "analyzer/fact_rows.h"
#include "db/model/run_sink.h"

namespace flopscope {

// write_run() of a run held in memory, with its summary facts derived on a second thread while the rows
// are written (the facts need no copy of the rows then).
Status write_run_with_facts(RunSink& sink, const RunData& run);

class SummaryFactsSink final : public RunSink {
 public:
  explicit SummaryFactsSink(RunSink& inner) : inner_(inner) {}
  Status begin(const RunInfo& info) override;
  Status add_modules(std::span<const ModuleRecord> modules) override;
  Status add_ops(std::span<const OpRecord> ops) override;
  Status add_kernels(std::span<const KernelRecord> kernels) override;
  Status add_params(std::span<const ParamRecord> params) override { return inner_.add_params(params); }
  Status add_graph(std::span<const GraphNode> nodes, std::span<const GraphEdge> edges) override {
    return inner_.add_graph(nodes, edges);
  }
  Status add_quality(std::span<const QualityIssue> issues) override { return inner_.add_quality(issues); }
  Status add_activations(std::span<const ActivationRecord> a) override { return inner_.add_activations(a); }
  Status add_discarded(std::span<const DiscardedOpRecord> d) override { return inner_.add_discarded(d); }
  Status add_iteration_processes(std::span<const IterationProcess> p) override {
    return inner_.add_iteration_processes(p);
  }
  Status add_outputs(std::span<const OutputRecord> o) override { return inner_.add_outputs(o); }
  Status add_memory_events(std::span<const MemoryEvent> m) override { return inner_.add_memory_events(m); }
  Status add_summary_facts(const SummaryFacts&) override { return {}; }  // computed here, at finish()
  Status add_trace_extras(const TraceExtras& e) override { return inner_.add_trace_extras(e); }
  Status finish() override;
  // The facts written at finish(): what `import` states about the run (kernel attribution) is what `report`
  // reads back, by the same rule.
  const SummaryFacts& facts() const { return facts_; }

 private:
  RunSink& inner_;
  FactRows rows_;
  SummaryFacts facts_;
};

}  // namespace flopscope
