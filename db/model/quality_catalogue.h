// The data-quality catalogue: every kind of problem a writer can record, with a stable code (stored in the
// run database's data_quality.code and shown by every report), a severity and one line of English. Writers
// name a kind by its QualityCode; only the detail (counts, names, a path) is free text. Codes are never
// renamed or reused: a run database, a JSON report or a CI script may hold them. docs/data-quality.md lists
// them all (a test keeps it equal to this table).
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "db/model/records.h"

namespace flopscope {

// X(code, severity, text). Grouped by writer; a new kind goes at the end of its group.
#define FLOPSCOPE_QUALITY_KINDS(X)                                                                           \
  /* Rows whose code this build does not know: older databases (text kept in the detail). */                 \
  X(legacy, kInfo, "a row written without a known code (its original text is in the detail)")                \
  /* analyzer/summary: the report's own findings. */                                                         \
  X(ops_without_flops_formula, kWarning, "ops without a FLOPs formula (FLOPs unknown, not zero)")            \
  X(kernels_without_module, kWarning, "kernels not attributed to a module")                                  \
  X(orphan_kernels_left_out, kInfo,                                                                          \
    "orphan kernels (launched before the profiling window), left out of per-iteration time")                 \
  /* collector/torch and `flopscope profile`. */                                                             \
  /* detail: the modules' paths, one per line; diff gates that match one of them exit 2. */                  \
  X(ambiguous_module_attribution, kError, "ops with ambiguous module attribution")                           \
  X(reference_blas, kWarning, "reference BLAS in use")                                                       \
  X(blas_backend, kInfo, "BLAS backend")                                                                     \
  X(activation_statistics, kInfo, "module calls with activation statistics (--activations)")                 \
  X(graph_not_extracted, kWarning, "computation graph not extracted")                                        \
  X(fused_ops_split, kInfo, "fused ops whose inner ops were given to the submodules they stand for")         \
  X(fused_ops_not_split, kWarning,                                                                           \
    "fused ops left whole on their module (inner ops in an unknown order): its submodules show no cost")     \
  /* detail: the output tensors, one "call N: NAME" per line. */                                             \
  X(outputs_summarized, kInfo,                                                                               \
    "output tensors over the per-run value budget: kept as statistics, hash and top-1 only")                 \
  /* `flopscope trace`. */                                                                                   \
  X(recorded_by_trace, kInfo,                                                                                \
    "recorded by flopscope trace: host clock; analytic FLOPs from shapes; module paths from "                \
    "named_modules()")                                                                                       \
  X(meta_device, kInfo,                                                                                      \
    "counted on the meta device (--meta): shapes only, no values computed and no weights read; op times "    \
    "are not the model's")                                                                                   \
  X(value_dependent_ops, kWarning,                                                                           \
    "ops whose cost depends on tensor values (output size or a value read back): not countable from shapes " \
    "on the meta device")                                                                                    \
  X(program_failed, kWarning,                                                                                \
    "the program failed or was stopped: the run holds what was recorded until then")                         \
  X(iterations_incomplete, kInfo, "fewer iterations recorded than requested")                                \
  X(several_processes, kWarning, "several Python processes recorded traces; the run holds one of them")      \
  X(companion_note, kInfo, "a note from the Python companion")                                               \
  X(activations_of_unknown_modules, kWarning, "activation statistics of modules not in the trace (dropped)") \
  X(params_without_statistics, kWarning, "parameters or buffers without statistics (not stored)")            \
  /* `import --weights`: module paths from a weights file. */                                                \
  X(paths_from_weights_file, kInfo, "module paths named by attribute from the weights file")                 \
  X(trace_without_shapes, kWarning,                                                                          \
    "the trace has no input shapes (record_shapes=False): modules cannot be matched to the weights file's "  \
    "tensors")                                                                                               \
  X(modules_without_own_tensors, kInfo,                                                                      \
    "modules with no tensors of their own in the weights file: class-based name kept")                       \
  X(modules_ambiguous_in_weights, kWarning,                                                                  \
    "modules not mapped to an attribute path (ambiguous): class-based name kept")                            \
  X(weight_tensors_unplaced, kInfo,                                                                          \
    "tensors of the weights file whose module is not in the trace (not called, or not mapped)")              \
  /* analyzer/importers/trace_builder: every trace importer. */                                              \
  X(impossible_event_time, kError,                                                                           \
    "event with an impossible time (negative duration or far out of range; dropped)")                        \
  X(impossible_op_shapes, kError, "op with impossible argument shapes (FLOPs unknown)")                      \
  X(host_op_partial_overlap, kInfo, "host op overlaps its parent partially")                                 \
  X(host_ops_outside_steps, kInfo, "host ops outside any profiler step (counted in the nearest step)")       \
  X(correlation_launched_twice, kError,                                                                      \
    "kernel correlation id launched more than once (kernel not linked to an op)")                            \
  X(correlation_in_several_processes, kWarning,                                                              \
    "kernel correlation id used by several processes (not linked)")                                          \
  X(kernels_linked_by_external_id, kInfo, "kernels linked to their op by External id")                       \
  X(kernels_linked_by_time, kInfo, "kernels linked to their op by time containment of the launch")           \
  X(kernels_via_enclosing_range, kInfo,                                                                      \
    "kernels attributed through the launch's enclosing range (the trace has no ops)")                        \
  X(kernels_launched_outside_ops, kWarning, "kernels whose launch is outside any op")                        \
  X(orphan_kernels, kWarning,                                                                                \
    "kernels without a launch in the trace (orphans: unattributed, outside every iteration)")                \
  X(activities_without_correlation, kInfo, "device activities without a correlation id (unattributed)")      \
  X(graph_replay_matched, kInfo,                                                                             \
    "kernels replayed from a CUDA graph, attributed to the op of their captured launch")                     \
  X(graph_replay_matched_by_order, kWarning,                                                                 \
    "kernels replayed from a CUDA graph, matched to a captured launch by order only")                        \
  X(graph_replay_unmatched, kWarning,                                                                        \
    "kernels replayed from a CUDA graph without a matching captured launch")                                 \
  X(capture_ops_placed, kInfo, "ops of the CUDA graph capture (placed at the graph launch, zero host time)") \
  X(capture_ops_unmatched, kWarning,                                                                         \
    "ops of the capture trace left out: no replayed kernel matched its launches")                            \
  X(capture_ops_outside_region, kInfo, "ops of the capture trace outside the captured region (left out)")    \
  X(graph_replay_at_launch, kInfo,                                                                           \
    "kernels replayed from a CUDA graph without a capture trace: attributed to the graph launch as an op")   \
  /* Kineto (torch.profiler) traces. */                                                                      \
  X(malformed_trace_events, kWarning, "malformed trace events (skipped)")                                    \
  X(user_annotations_as_ranges, kInfo, "user annotations (record_function ranges) kept as ranges, not ops")  \
  X(range_profiler_entries, kInfo, "range-profiler entries (durations are replay time, not linked to ops)")  \
  X(malformed_memory_events, kWarning,                                                                       \
    "memory events (profile_memory) without a valid time, byte count or device (skipped)")                   \
  /* Nsight Compute CSV. */                                                                                  \
  X(metric_unit_unknown, kInfo, "metric values with a unit not understood (taken as is)")                    \
  X(csv_rows_too_few_fields, kWarning, "CSV rows with too few fields (skipped)")                             \
  X(csv_rows_without_kernel_id, kWarning, "CSV rows without a numeric kernel ID (skipped)")                  \
  X(kernels_impossible_duration, kError, "kernels with an impossible duration (skipped)")                    \
  X(kernels_past_time_range, kError, "kernels past the time range (skipped)")                                \
  X(kernels_without_duration, kWarning, "kernels without a duration metric (duration 0)")                    \
  X(kernels_end_to_end, kInfo, "kernels placed end to end in ID order (ncu replays kernels serially)")       \
  /* Nsight Systems SQLite exports. */                                                                       \
  X(kernel_table_incomplete, kError, "kernel table without start/end/name columns (kernels skipped)")        \
  X(kernel_names_missing, kWarning, "kernels whose name id is not in StringIds")                             \
  X(kernels_end_before_start, kWarning, "kernels with end before start (skipped)")                           \
  X(runtime_table_incomplete, kError,                                                                        \
    "runtime table without start/end/globalTid/correlationId (no launches)")                                 \
  X(duplicate_runtime_rows, kInfo, "duplicate runtime rows for one correlation id (ignored)")                \
  /* collector/cupti: the CUPTI tracer and its counters. */                                                  \
  X(kernel_without_launch_scope, kWarning, "kernel without launch scope")                                    \
  X(graph_kernel_without_node_scope, kWarning, "graph kernel without node scope")                            \
  X(kernel_without_timestamp, kWarning, "kernel without timestamp")                                          \
  X(activity_records_dropped, kError, "activity records dropped")                                            \
  X(unreadable_activity_buffer, kError, "unreadable activity buffer")                                        \
  X(unbalanced_scope_pop, kWarning, "unbalanced scope pop")                                                  \
  X(graph_launch_without_counters, kWarning, "graph launch without counters")                                \
  X(counter_ranges_dropped, kError, "counter ranges dropped")                                                \
  X(counters_not_collected, kError, "counters not collected")                                                \
  X(counter_range_name_mismatch, kError, "counter range kernel name mismatch")                               \
  X(counter_range_without_kernel, kWarning, "counter range without traced kernel")                           \
  X(counter_range_without_launch, kError, "counter range without launch")                                    \
  X(launch_without_counter_range, kWarning, "launch without counter range")

enum class QualityCode : std::uint16_t {
#define FLOPSCOPE_QUALITY_ENUM(code, severity, text) code,
  FLOPSCOPE_QUALITY_KINDS(FLOPSCOPE_QUALITY_ENUM)
#undef FLOPSCOPE_QUALITY_ENUM
};

struct QualityKind {
  QualityCode code;
  std::string_view id;  // the stable snake_case code, e.g. "ops_without_flops_formula"
  Severity severity;
  std::string_view text;  // one line of English
};

// Every kind, in QualityCode order.
std::span<const QualityKind> quality_catalogue();
const QualityKind& quality_kind(QualityCode code);
std::string_view quality_id(QualityCode code);
std::string_view quality_text(QualityCode code);
// The kind a stored code names; nullopt for a code this build does not know.
std::optional<QualityCode> quality_code_from_id(std::string_view id);

// One row of the data-quality table: a kind of problem, how often it happened, how bad it is. The severity
// is the catalogue's; a row read from a database keeps the severity it was stored with.
struct QualityIssue {
  QualityCode code = QualityCode::legacy;
  std::int64_t count = 0;
  Severity severity = Severity::kInfo;
  std::string detail;  // free text: names, paths, counts ('' when none)

  QualityIssue() = default;
  QualityIssue(QualityCode c, std::int64_t n, std::string d = {})
      : code(c), count(n), severity(quality_kind(c).severity), detail(std::move(d)) {}
  std::string_view id() const { return quality_id(code); }
  std::string_view text() const { return quality_text(code); }
  bool operator==(const QualityIssue&) const = default;
};

}  // namespace flopscope
