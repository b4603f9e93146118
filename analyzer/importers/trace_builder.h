// The one builder every importer writes through. Importers hand it raw host ranges (ops, module scopes,
// iterations), launches and device activities as they parse; finish() normalises and attributes them and
// writes the run to a RunSink:
//   - times become nanoseconds from the earliest event; ids are dense and ordered by start time;
//   - ops nest by time containment per thread (parent_op_id, depth);
//   - module scopes (nn.Module python_function events, NVTX ranges) nest per thread into a module tree:
//     see module_scopes.h for how paths are named; TorchScript `Module Hierarchy` paths are taken as given;
//   - op -> innermost module scope containing it on its thread;
//   - kernel -> launch by correlation -> op by External id when that op contains the launch on the same
//     thread, otherwise the innermost op containing the launch (time-containment fallback); kernels with no
//     launch are orphans: kept, unattributed, with iteration kOrphanIteration (outside every iteration);
//   - without a capture trace, each CUDA-graph launch becomes an op of its own (named after the runtime
//     call, nested under the op around it, if any) that owns the kernels it replays;
//   - op FLOPs from FlopsRegistry::builtin(), counted once at the outermost op that has a formula (ops
//     inside it are FlopsSource::kNested);
//   - every problem is counted in a QualityIssue row; nothing aborts the import.
// Memory: names and argument lists are interned, records are converted to the sink's structs in batches.
#pragma once

#include <array>
#include <climits>
#include <cstdint>
#include <deque>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "analyzer/flops/registry.h"
#include "db/model/memory_records.h"
#include "db/model/records.h"
#include "db/model/run_sink.h"
#include "db/model/status.h"
#include "db/model/trace_extras.h"

namespace flopscope {

class Progress;

// Interned strings: ids are dense from 0; 0 is always "".
class StringPool {
 public:
  StringPool() { intern(""); }
  std::uint32_t intern(std::string_view s);
  const std::string& get(std::uint32_t id) const { return strings_[id]; }
  std::size_t size() const { return strings_.size(); }

 private:
  std::deque<std::string> strings_;  // a deque keeps the views in index_ valid
  std::unordered_map<std::string_view, std::uint32_t> index_;
};

class TraceBuilder {
 public:
  using ThreadId = std::uint32_t;
  static constexpr std::int64_t kNone = INT64_MIN;
  static constexpr int kOrphanIteration = -1;

  struct HostOp {
    ThreadId thread = 0;
    std::int64_t start_ns = 0;
    std::int64_t duration_ns = 0;
    std::uint32_t name = 0;  // interned
    std::int64_t external_id = kNone;
    std::uint32_t args = 0;         // from intern_args; 0 = no arguments
    std::uint32_t module_path = 0;  // interned dotted path from a TorchScript hierarchy ("" = the root)
    bool has_module_path = false;
  };
  struct Scope {
    ThreadId thread = 0;
    std::int64_t start_ns = 0;
    std::int64_t duration_ns = 0;
    std::uint32_t instance = 0;  // interned, e.g. "BertLayer_0" or an NVTX range text
    std::uint32_t type = 0;      // interned class name, e.g. "BertLayer"
    // instance is already the module's dotted path (flopscope's Python companion names each call by its
    // named_modules() path), so it is taken as given instead of being derived from the nesting.
    bool is_path = false;
    // An "nn.Module:" Python frame: left out of the module tree when the trace also names module calls by
    // path (an export of flopscope's, recorded with its Python stack, carries both for the same calls).
    bool python = false;
  };
  struct Launch {
    ThreadId thread = 0;
    std::int64_t start_ns = 0;
    std::int64_t duration_ns = 0;
    std::int64_t correlation = 0;
    std::int64_t external_id = kNone;
    std::int64_t process = 0;    // correlation ids are per process
    bool graph = false;          // a CUDA graph launch: its kernels are replays of a captured graph
    bool captured = false;       // recorded while capturing a graph (capture trace)
    std::uint32_t kernel = 0;    // interned kernel name of a captured launch (0 = not given)
    std::uint32_t api = 0;       // interned runtime call of a graph launch, e.g. "hipGraphLaunch"
    std::uint32_t name = 0;      // interned runtime call, kept with the kernels it launched (0 = not given)
    std::uint32_t category = 0;  // interned source category (cuda_runtime, cuda_driver, ...), for export
  };
  // A host event kept only for export (db/model/trace_extras.h): a Python frame, or a runtime call without
  // a correlation id.
  struct HostEvent {
    ThreadId thread = 0;
    std::int64_t start_ns = 0;
    std::int64_t duration_ns = 0;
    std::uint32_t category = 0;  // interned
    std::uint32_t name = 0;      // interned
    std::int64_t correlation = kNone;
    std::int64_t python_id = kNone;
    std::int64_t python_parent_id = kNone;
  };
  struct Activity {
    KernelKind kind = KernelKind::kKernel;
    std::uint32_t name = 0;
    int device = 0;
    std::int64_t stream = 0;
    std::int64_t start_ns = 0;
    std::int64_t duration_ns = 0;
    std::array<int, 3> grid{0, 0, 0};
    std::array<int, 3> block{0, 0, 0};
    std::int64_t correlation = kNone;  // kNone: no launch to look for (e.g. range-profiler entries)
    std::int64_t external_id = kNone;
    std::int64_t process = kNone;  // host process, when the format says it
    std::int64_t graph_id = 0;
    std::int64_t graph_node_id = 0;
    double bytes = 0;
    std::int32_t counters = -1;  // index into counters(), -1 = none
  };
  struct Counters {
    double flops_fp64 = 0, flops_fp32 = 0, flops_fp16 = 0, tensor_ops = 0, tensor_pipe_inst = 0;
    double dram_bytes = 0, dram_bytes_read = 0, dram_bytes_written = 0, l2_bytes = 0;
  };

  struct Options {
    // nn.Module events: a single outermost module instance is the model itself, i.e. the root "".
    bool single_top_scope_is_root = true;
  };

  explicit TraceBuilder(RunInfo info) : TraceBuilder(std::move(info), Options()) {}
  TraceBuilder(RunInfo info, Options options);

  std::uint32_t intern(std::string_view s) { return strings_.intern(s); }
  const std::string& str(std::uint32_t id) const { return strings_.get(id); }
  ThreadId thread(std::int64_t process, std::int64_t tid);
  // A thread of the graph-capture trace: kept apart from the run's own threads even for the same ids.
  ThreadId capture_thread(std::int64_t process, std::int64_t tid);
  // A device activity of the capture trace ran eagerly while capturing: its launch was not captured.
  void add_capture_activity(std::int64_t correlation) { capture_executed_.push_back(correlation); }
  // The module at a dotted path, created with its parents when new; a non-empty type fills in an empty one.
  // A path deeper than the depth rule allows is not created (the root is returned; finish refuses the run).
  Id module(std::string_view path, std::string_view type);
  // False, and the run refused by finish, when a module path of `levels` segments breaks the one depth
  // rule (check_module_depth); to be asked before building a path's text.
  bool depth_ok(std::size_t levels);

  // Argument lists are interned by a caller-chosen key (e.g. the raw JSON of the shape fields); make is
  // called only for a key not seen before. Returns an id for HostOp::args.
  template <typename Make>
  std::uint32_t intern_args(std::string_view key, Make&& make) {
    auto it = args_index_.find(key);
    if (it != args_index_.end()) return it->second;
    args_.push_back(make());
    auto id = static_cast<std::uint32_t>(args_.size() - 1);
    args_index_.emplace(std::string(key), id);
    return id;
  }

  // Events with impossible times (see times_ok) are dropped and counted as data-quality errors; past
  // --max-events none is kept (see admit).
  void add_op(const HostOp& op) {
    if (admit(op.start_ns, op.duration_ns)) ops_.push_back(op);
  }
  void add_scope(const Scope& scope) {
    if (admit(scope.start_ns, scope.duration_ns)) scopes_.push_back(scope);
  }
  // A user annotation (record_function range) other than a profiler step: a candidate iteration marker.
  void add_annotation(const Scope& range) {
    if (times_ok(range.start_ns, range.duration_ns)) annotations_.push_back(range);
  }
  // --iteration-marker: every outermost host range (op, annotation, module range) whose name matches the
  // ECMAScript regular expression is one iteration, whatever else the trace marks. An error naming the
  // source when it is not a regular expression.
  Status set_iteration_marker(const std::string& regex);
  // A profiler step; `thread` is the thread it ran on (-1: unknown). Steps on several threads may overlap
  // (a model called from a thread pool): an op then belongs to the step of its own thread.
  void add_iteration(std::int64_t number, std::int64_t start_ns, std::int64_t duration_ns,
                     std::int64_t thread = -1) {
    if (admit(start_ns, duration_ns)) iterations_.push_back({number, start_ns, duration_ns, thread});
  }
  void add_launch(const Launch& launch) {
    if (!admit(launch.start_ns, launch.duration_ns)) return;
    launches_.push_back(launch);
    if (launch.captured) launches_.back().process = threads_[launch.thread].process;
  }
  void add_activity(const Activity& activity) {
    if (admit(activity.start_ns, activity.duration_ns)) activities_.push_back(activity);
  }
  void add_host_event(const HostEvent& event) {
    if (admit(event.start_ns, event.duration_ns)) host_events_.push_back(event);
  }
  // The source's deviceProperties, minified JSON, kept whole for export.
  void set_device_properties(std::string json) { extras_.device_properties = std::move(json); }
  // An allocator event (profile_memory) on the trace's clock, its thread from thread(): kept in time order,
  // moved to the run's origin and written after the rows. None from a capture trace (not this run's).
  void add_memory_event(const MemoryEvent& m, ThreadId thread) {
    if (thread_capture_[thread] == 0 && admit(m.ts_ns, 0)) memory_.push_back({m, thread});
  }
  std::int32_t add_counters(const Counters& c) {
    counters_.push_back(c);
    return static_cast<std::int32_t>(counters_.size() - 1);
  }

  // True when start + duration cannot overflow anything finish() computes; otherwise counts an error.
  bool times_ok(std::int64_t start_ns, std::int64_t duration_ns);
  // times_ok, within --max-events: what the builder keeps per event is what an import costs in memory, for
  // every format (the JSON stream stops at the same limit before parsing on).
  bool admit(std::int64_t start_ns, std::int64_t duration_ns);
  // Counts one occurrence of a data problem; the first detail given is kept as an example.
  void issue(QualityCode code, std::string_view detail = {});

  RunInfo& info() { return info_; }

  // Attributes everything and writes the run: begin, modules, ops, kernels, quality, finish. Spends the
  // builder: its op, launch and activity tables are freed before the sink finishes.
  Status finish(RunSink& sink, Progress* progress = nullptr);

 private:
  struct Iteration {
    std::int64_t number, start_ns, duration_ns, thread;
  };
  struct ThreadKey {
    std::int64_t process, tid;
    bool operator==(const ThreadKey&) const = default;
  };
  struct ThreadKeyHash {
    std::size_t operator()(const ThreadKey& k) const {
      // Unsigned: process ids come from the trace, and a signed product could overflow.
      return std::hash<std::uint64_t>{}((static_cast<std::uint64_t>(k.process) * 1000003u) ^
                                        static_cast<std::uint64_t>(k.tid));
    }
  };

  // Results of the attribution passes, index-aligned with the sorted ops / activities.
  struct Linked;
  // Iterations when the trace has no profiler steps, or --iteration-marker overrides them, in this order:
  // marker, ProfilerStep#, a repeated annotation, CUDA-graph replays, repeated top-level module calls
  // (trace_iterations.cpp). Records the rule in info_.iterations_from.
  Status find_iterations();
  bool iterations_from_marker();
  bool iterations_from_annotations();
  bool iterations_from_graph_replays();
  bool iterations_from_top_scopes();
  void sort_inputs();
  void add_graph_launch_ops();
  void build_modules(Linked& linked);
  void nest_ops(Linked& linked);
  void link_activities(Linked& linked);
  // link_activities in steps: the indexes it looks launches up in, then each activity, then quality rows.
  struct LaunchIndex;
  struct LinkCounts;
  LaunchIndex index_launches() const;
  std::int32_t launch_of(const Activity& a, const LaunchIndex& x);
  bool link_replay(Linked& linked, LaunchIndex& x, std::size_t i, std::int32_t launch, LinkCounts& counts);
  void link_launch(Linked& linked, const LaunchIndex& x, std::size_t i, std::int32_t launch,
                   LinkCounts& counts);
  void mark_capture_region(Linked& linked, const LaunchIndex& x) const;
  void note_links(const LinkCounts& counts);
  void compute_flops(Linked& linked);
  void place_capture_ops(Linked& linked);
  std::int32_t op_of_launch(const Linked& linked, const Launch& l, std::int64_t external_id,
                            const std::unordered_map<std::uint64_t, std::int32_t>& op_by_ext,
                            bool& by_id) const;
  int iteration_at(std::int64_t t) const;
  // The step of an op's own thread that began last at or before t, when that thread has steps; else by time.
  int iteration_of_op(ThreadId thread, std::int64_t t) const;
  Status write(RunSink& sink, const Linked& linked, Progress* progress);
  // "nn.Module:" frames go when companion-named module ranges are present (Scope::python).
  void drop_python_scopes_beside_paths();
  // The host events and the runtime calls that launched no device activity, times from the run's origin,
  // in start order (trace_host_events.cpp).
  // act_launch: the launch of each activity, -1 when none.
  void collect_trace_extras(std::int64_t origin, const std::vector<std::int32_t>& act_launch);
  // Fill the record (`op`, `k`) completely, reusing the memory of its strings and vectors (records of a
  // written batch are refilled for the next one: no allocation per row).
  void make_op(const Linked& linked, std::uint32_t i, Id id, const std::vector<Id>& op_id,
               OpRecord& op) const;
  void make_kernel(const Linked& linked, std::size_t i, const std::vector<Id>& op_id, KernelRecord& k) const;

  RunInfo info_;
  Options options_;
  StringPool strings_;
  std::unordered_map<ThreadKey, ThreadId, ThreadKeyHash> thread_index_;
  Status limit_error_;          // an input limit hit while building (see db/model/input_limits.h)
  std::int64_t dropped_ = 0;    // events refused by times_ok
  std::uint64_t admitted_ = 0;  // events offered to admit
  std::uint64_t max_events_ = 0;
  std::vector<ThreadKey> threads_;
  std::vector<char> thread_capture_;            // per thread: from the graph-capture trace
  std::vector<std::int64_t> capture_executed_;  // correlations of capture-time activities
  std::int64_t graph_launch_ops_ = 0;           // graph launches added as ops (no capture trace)
  std::vector<std::vector<OpArg>> args_{{}};
  struct TransparentHash {
    using is_transparent = void;
    std::size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
  };
  std::unordered_map<std::string, std::uint32_t, TransparentHash, std::equal_to<>> args_index_;
  std::vector<HostOp> ops_;
  std::vector<Scope> scopes_;
  std::vector<Iteration> iterations_;
  std::vector<Scope> annotations_;  // user annotations (instance: the range's name)
  std::string marker_;              // --iteration-marker, "" when not given
  // Per thread with steps: (start, index into iterations_) in start order.
  std::vector<std::vector<std::pair<std::int64_t, int>>> thread_iterations_;
  std::vector<Launch> launches_;
  std::vector<Activity> activities_;
  std::vector<Counters> counters_;
  std::vector<HostEvent> host_events_;
  TraceExtras extras_;
  std::vector<std::pair<MemoryEvent, ThreadId>> memory_;
  Status write_memory_events(RunSink& sink, std::int64_t origin);
  std::vector<std::int32_t> scope_parent_;
  std::vector<ModuleRecord> modules_;
  // Module ids by the hash of their path: the paths are kept once, in modules_ (a map keyed by path was a
  // second copy, and path text grows with depth squared in deep hierarchies).
  std::unordered_multimap<std::size_t, Id> module_by_hash_;
  Id find_module(std::string_view path) const;
  // The module at `path` (child of `parent`), created when new; a non-empty type fills in an empty one.
  Id module_under(Id parent, std::string path, std::string_view type);
  std::map<QualityCode, QualityIssue> issues_;  // in catalogue order
};

}  // namespace flopscope
