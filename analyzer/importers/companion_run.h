// What flopscope's Python companion (python/flopscope, loaded by `flopscope trace`) writes beside its
// trace: the module tree from named_modules(), parameters and buffers with statistics, per-call activation
// statistics, and how the recording went. read_companion_info() parses it; CompanionSink adds it to the
// run the Kineto importer writes, joining by module path.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "db/model/run_sink.h"
#include "db/model/status.h"

namespace flopscope {

struct CompanionInfo {
  std::int64_t pid = 0;
  std::string torch_version;
  bool torch_importable = true;
  bool torch_imported = false;
  std::string backend;  // "kineto" (torch.profiler) or "event-tree" (torch without Kineto)
  int root_calls = 0;
  int iterations_begun = 0;
  int warmup = 0;
  int iterations = 0;  // recorded
  int iterations_requested = 0;
  bool complete = false;  // all requested iterations recorded
  bool step_mode = false;
  std::string trace;                  // file name of the trace, "" when nothing was recorded
  std::string root;                   // class of the root module
  std::vector<ModuleRecord> modules;  // paths and classes; ids unset
  std::vector<ParamRecord> params;    // module_id unset
  std::vector<std::string> params_without_statistics;
  bool has_activations = false;
  struct Activation {
    std::string path;
    ActivationRecord record;  // module_id unset
  };
  std::vector<Activation> activations;
  double activation_cost_ns = 0;
  // trace --save-outputs: what the root module returned per distinct input (values from outputs.<pid>.bin).
  bool has_outputs = false;
  std::vector<OutputRecord> outputs;
  int outputs_summarized = 0;
  std::string outputs_summarized_detail;  // "call N: NAME" per line
  std::vector<std::string> notes;
  bool meta = false;         // run on the meta device (flopscope trace --meta)
  std::string meta_refused;  // why --meta could not run with this torch ("" when it did)
  struct ValueDependent {
    std::string op, path;
    std::int64_t calls = 0;
  };
  std::vector<ValueDependent> value_dependent;  // ops whose cost depends on values, under --meta
};

// Parses info.<pid>.json. Errors name the file.
StatusOr<CompanionInfo> read_companion_info(const std::string& path);

// Forwards a run to `inner`; before finish() adds the companion's parameters and activation statistics
// (module ids looked up by path in the modules the run wrote) and `extra` quality rows.
class CompanionSink final : public RunSink {
 public:
  // `patch` adjusts the run row (source, iterations) before it is written.
  CompanionSink(RunSink& inner, const CompanionInfo& info, std::vector<QualityIssue> extra,
                std::function<void(RunInfo&)> patch);
  Status begin(const RunInfo& info) override;
  Status add_modules(std::span<const ModuleRecord> modules) override;
  Status add_ops(std::span<const OpRecord> ops) override { return inner_.add_ops(ops); }
  Status add_kernels(std::span<const KernelRecord> kernels) override { return inner_.add_kernels(kernels); }
  Status add_params(std::span<const ParamRecord> params) override { return inner_.add_params(params); }
  Status add_graph(std::span<const GraphNode> n, std::span<const GraphEdge> e) override {
    return inner_.add_graph(n, e);
  }
  Status add_quality(std::span<const QualityIssue> q) override { return inner_.add_quality(q); }
  Status add_activations(std::span<const ActivationRecord> a) override { return inner_.add_activations(a); }
  Status add_discarded(std::span<const DiscardedOpRecord> d) override { return inner_.add_discarded(d); }
  Status add_trace_extras(const TraceExtras& e) override { return inner_.add_trace_extras(e); }
  Status add_memory_events(std::span<const MemoryEvent> m) override { return inner_.add_memory_events(m); }
  Status finish() override;
  // The iterations the run holds: the trace's profiler steps (known once begin() ran).
  int stored_iterations() const { return stored_iterations_; }

 private:
  RunSink& inner_;
  const CompanionInfo& info_;
  int stored_iterations_ = 0;
  std::vector<QualityIssue> extra_;
  std::function<void(RunInfo&)> patch_;
  std::vector<ModuleRecord> modules_;
};

}  // namespace flopscope
