#include "db/model/records.h"

#include "db/model/run_sink.h"

namespace flopscope {
namespace {

template <typename Enum, std::size_t N>
Enum from_string(const std::string& s, const char* const (&names)[N], Enum fallback) {
  for (std::size_t i = 0; i < N; ++i) {
    if (s == names[i]) return static_cast<Enum>(i);
  }
  return fallback;
}

// Index order matches the enums.
constexpr const char* kSourceKinds[] = {"torch-cpu", "cupti", "kineto", "nsys", "ncu", "unknown"};
constexpr const char* kFlopsSources[] = {"none", "formula", "measured", "nested"};
constexpr const char* kSeverities[] = {"info", "warning", "error"};
constexpr const char* kKernelKinds[] = {"kernel", "memcpy", "memset"};

}  // namespace

const char* to_string(SourceKind kind) {
  return kSourceKinds[static_cast<int>(kind)];
}
const char* to_string(FlopsSource source) {
  return kFlopsSources[static_cast<int>(source)];
}
const char* to_string(Severity severity) {
  return kSeverities[static_cast<int>(severity)];
}
const char* to_string(KernelKind kind) {
  return kKernelKinds[static_cast<int>(kind)];
}

SourceKind source_kind_from_string(const std::string& s) {
  return from_string(s, kSourceKinds, SourceKind::kUnknown);
}
FlopsSource flops_source_from_string(const std::string& s) {
  return from_string(s, kFlopsSources, FlopsSource::kNone);
}
Severity severity_from_string(const std::string& s) {
  return from_string(s, kSeverities, Severity::kInfo);
}
KernelKind kernel_kind_from_string(const std::string& s) {
  return from_string(s, kKernelKinds, KernelKind::kKernel);
}

Status write_rows(RunSink& sink, const RunData& run) {
  FS_RETURN_IF_ERROR(sink.begin(run.info));
  FS_RETURN_IF_ERROR(sink.add_modules(run.modules));
  FS_RETURN_IF_ERROR(sink.add_ops(run.ops));
  FS_RETURN_IF_ERROR(sink.add_kernels(run.kernels));
  FS_RETURN_IF_ERROR(sink.add_params(run.params));
  FS_RETURN_IF_ERROR(sink.add_graph(run.graph_nodes, run.graph_edges));
  if (!run.activations.empty()) FS_RETURN_IF_ERROR(sink.add_activations(run.activations));
  if (!run.discarded.empty()) FS_RETURN_IF_ERROR(sink.add_discarded(run.discarded));
  if (!run.iteration_processes.empty())
    FS_RETURN_IF_ERROR(sink.add_iteration_processes(run.iteration_processes));
  if (!run.outputs.empty()) FS_RETURN_IF_ERROR(sink.add_outputs(run.outputs));
  if (!run.memory_events.empty()) FS_RETURN_IF_ERROR(sink.add_memory_events(run.memory_events));
  return sink.add_quality(run.quality);
}

Status write_run(RunSink& sink, const RunData& run) {
  FS_RETURN_IF_ERROR(write_rows(sink, run));
  if (run.summary_facts.present) FS_RETURN_IF_ERROR(sink.add_summary_facts(run.summary_facts));
  return sink.finish();
}

}  // namespace flopscope
