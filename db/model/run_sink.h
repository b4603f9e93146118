// Where capture writes a run. The collector and importers depend on this interface only; db/ provides the
// SQLite implementation, and MemoryRunSink collects into a RunData for tests and in-process analysis.
#pragma once

#include <span>

#include "db/model/run_data.h"
#include "db/model/status.h"
#include "db/model/trace_extras.h"

namespace flopscope {

class RunSink {
 public:
  virtual ~RunSink() = default;
  virtual Status begin(const RunInfo& info) = 0;
  virtual Status add_modules(std::span<const ModuleRecord> modules) = 0;
  virtual Status add_ops(std::span<const OpRecord> ops) = 0;
  virtual Status add_kernels(std::span<const KernelRecord> kernels) = 0;
  virtual Status add_params(std::span<const ParamRecord> params) = 0;
  virtual Status add_graph(std::span<const GraphNode> nodes, std::span<const GraphEdge> edges) = 0;
  virtual Status add_quality(std::span<const QualityIssue> issues) = 0;
  // Activation statistics (profile --activations). A sink that cannot store them says so; it never drops
  // them.
  virtual Status add_activations(std::span<const ActivationRecord>) {
    return Unsupported("this run sink does not store activation statistics");
  }
  // Dead compute (profile --activations), under the same rule.
  virtual Status add_discarded(std::span<const DiscardedOpRecord>) {
    return Unsupported("this run sink does not store dead-compute records");
  }
  // Which process ran each iteration, for a run joined from several processes (`trace --repeat`).
  virtual Status add_iteration_processes(std::span<const IterationProcess>) {
    return Unsupported("this run sink does not store which process ran each iteration");
  }
  // What forward() returned per call (profile / trace --save-outputs), under the same rule.
  virtual Status add_outputs(std::span<const OutputRecord>) {
    return Unsupported("this run sink does not store model outputs");
  }
  // Allocator events (a Kineto trace recorded with profile_memory), under the same rule.
  virtual Status add_memory_events(std::span<const MemoryEvent>) {
    return Unsupported("this run sink does not store memory events");
  }
  // What summarize() derives from the rows (analyzer/summary_facts), given after every row: a sink that
  // cannot store it drops it (it is derived, and readers derive it again from the rows).
  virtual Status add_summary_facts(const SummaryFacts&) { return {}; }
  // A trace's events that only an export writes back (db/model/trace_extras.h), given once, before
  // finish(). A sink that cannot store them says so, as for activations.
  virtual Status add_trace_extras(const TraceExtras&) {
    return Unsupported("this run sink does not store a trace's host events");
  }
  // Makes the run visible (for a file: renames the temporary file into place). Without finish(), a
  // destroyed sink leaves nothing behind.
  virtual Status finish() = 0;
};

class MemoryRunSink final : public RunSink {
 public:
  Status begin(const RunInfo& info) override {
    data_.info = info;
    return {};
  }
  Status add_modules(std::span<const ModuleRecord> m) override { return append(data_.modules, m); }
  Status add_ops(std::span<const OpRecord> o) override { return append(data_.ops, o); }
  Status add_kernels(std::span<const KernelRecord> k) override { return append(data_.kernels, k); }
  Status add_params(std::span<const ParamRecord> p) override { return append(data_.params, p); }
  Status add_graph(std::span<const GraphNode> n, std::span<const GraphEdge> e) override {
    (void)append(data_.graph_nodes, n);
    return append(data_.graph_edges, e);
  }
  Status add_quality(std::span<const QualityIssue> q) override { return append(data_.quality, q); }
  Status add_activations(std::span<const ActivationRecord> a) override {
    return append(data_.activations, a);
  }
  Status add_discarded(std::span<const DiscardedOpRecord> d) override { return append(data_.discarded, d); }
  Status add_iteration_processes(std::span<const IterationProcess> p) override {
    return append(data_.iteration_processes, p);
  }
  Status add_outputs(std::span<const OutputRecord> o) override { return append(data_.outputs, o); }
  Status add_memory_events(std::span<const MemoryEvent> m) override { return append(data_.memory_events, m); }
  Status add_summary_facts(const SummaryFacts& f) override {
    data_.summary_facts = f;
    return {};
  }
  Status add_trace_extras(const TraceExtras& e) override {
    extras_ = e;
    return {};
  }
  Status finish() override {
    finished_ = true;
    return {};
  }

  bool finished() const { return finished_; }
  RunData& data() { return data_; }
  TraceExtras& extras() { return extras_; }

 private:
  template <typename T>
  static Status append(std::vector<T>& to, std::span<const T> from) {
    to.insert(to.end(), from.begin(), from.end());
    return {};
  }
  RunData data_;
  TraceExtras extras_;
  bool finished_ = false;
};

// Writes a RunData's rows through a sink, in order, up to its summary facts and finish().
Status write_rows(RunSink& sink, const RunData& run);
// Writes a whole RunData through a sink, in order, with its summary facts when present.
Status write_run(RunSink& sink, const RunData& run);

}  // namespace flopscope
