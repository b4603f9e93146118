#include "analyzer/importers/trace_builder.h"

#include <algorithm>
#include <atomic>
#include <numeric>
#include <span>
#include <thread>
#include <unordered_set>
#include <utility>

#include "analyzer/importers/bounded_queue.h"
#include "analyzer/importers/module_scopes.h"
#include "analyzer/op_costs.h"
#include "db/model/input_limits.h"
#include "db/model/module_path.h"
#include "db/model/progress.h"

namespace flopscope {

std::uint32_t StringPool::intern(std::string_view s) {
  auto it = index_.find(s);
  if (it != index_.end()) return it->second;
  strings_.emplace_back(s);
  auto id = static_cast<std::uint32_t>(strings_.size() - 1);
  index_.emplace(strings_.back(), id);
  return id;
}

TraceBuilder::TraceBuilder(RunInfo info, Options options)
    : info_(std::move(info)), options_(options), max_events_(max_events()) {
  modules_.push_back({0, kNoId, "", ""});
  module_by_hash_.emplace(std::hash<std::string_view>{}(""), 0);
}

TraceBuilder::ThreadId TraceBuilder::thread(std::int64_t process, std::int64_t tid) {
  auto [it, added] = thread_index_.try_emplace({process, tid}, static_cast<ThreadId>(threads_.size()));
  if (added) {
    threads_.push_back({process, tid});
    thread_capture_.push_back(0);
  }
  return it->second;
}

TraceBuilder::ThreadId TraceBuilder::capture_thread(std::int64_t process, std::int64_t tid) {
  // A process key no real trace uses: capture ops and launches key their External ids apart from the run's.
  constexpr std::int64_t kCaptureTag = std::int64_t{1} << 61;
  ThreadId t = thread(process ^ kCaptureTag, tid);
  thread_capture_[t] = 1;
  return t;
}

bool TraceBuilder::times_ok(std::int64_t start_ns, std::int64_t duration_ns) {
  // |start| and duration below 2^61 ns (73 years): every sum and difference finish() forms stays in range.
  constexpr std::int64_t kLimit = std::int64_t{1} << 61;
  if (start_ns > -kLimit && start_ns < kLimit && duration_ns >= 0 && duration_ns < kLimit) return true;
  ++dropped_;
  issue(QualityCode::impossible_event_time,
        "start " + std::to_string(start_ns) + " ns, duration " + std::to_string(duration_ns) + " ns");
  return false;
}

bool TraceBuilder::admit(std::int64_t start_ns, std::int64_t duration_ns) {
  if (++admitted_ > max_events_) {
    if (limit_error_.ok()) {
      limit_error_ = InvalidArgument(info_.source_path + ": more than " + std::to_string(max_events_) +
                                     " events (--max-events raises the limit; the default is sized from the "
                                     "memory available)");
    }
    return false;
  }
  return times_ok(start_ns, duration_ns);
}

void TraceBuilder::issue(QualityCode code, std::string_view detail) {
  auto [it, added] = issues_.try_emplace(code, code, 0);
  ++it->second.count;
  if (it->second.detail.empty() && !detail.empty()) it->second.detail = std::string(detail.substr(0, 200));
}

struct TraceBuilder::Linked {
  std::vector<std::int32_t> op_parent;
  std::vector<int> op_depth;
  std::vector<Id> op_module;
  std::vector<int> op_iteration;
  std::vector<FlopsSource> op_source;
  std::vector<const FlopsResult*> op_flops;
  std::vector<std::size_t> thread_begin;  // ops of thread t: [thread_begin[t], thread_begin[t+1])
  std::vector<std::int32_t> act_op;
  std::vector<Id> act_module;
  std::vector<int> act_iteration;
  std::vector<std::int32_t> act_launch;  // the launch of each activity, -1 when none was found
  std::unordered_map<std::uint64_t, FlopsResult> flops_cache;
  // Module of the innermost scope containing a time on a thread (for launches without an op).
  std::vector<std::size_t> scope_begin;
  std::vector<Id> scope_module;
  std::int64_t origin = 0;
  // CUDA-graph capture: ops written (capture ops outside the captured region are not), and where the
  // capture ops are placed (the first graph launch whose replays matched; kNone when none did).
  std::vector<char> op_written;
  std::int64_t capture_anchor = kNone;
  // Host spans of the captured regions, in time order: one per piece of a piecewise capture.
  std::vector<std::pair<std::int64_t, std::int64_t>> capture_regions;
};

namespace {

// A bounded hand-over of record batches from the converting thread to the storing one.
struct Batch {
  std::vector<OpRecord> ops;
  std::vector<KernelRecord> kernels;
  bool of_kernels = false;  // which of the two is this batch's (the other keeps records for reuse)
};

using BatchQueue = BoundedQueue<Batch>;

template <typename T>
bool by_thread_start(const T& a, const T& b) {
  if (a.thread != b.thread) return a.thread < b.thread;
  if (a.start_ns != b.start_ns) return a.start_ns < b.start_ns;
  return a.duration_ns > b.duration_ns;
}

template <typename T>
std::vector<std::size_t> thread_offsets(const std::vector<T>& items, std::size_t threads) {
  std::vector<std::size_t> begin(threads + 1, items.size());
  for (std::size_t i = items.size(); i-- > 0;) begin[items[i].thread] = i;
  for (std::size_t t = threads; t-- > 0;) begin[t] = std::min(begin[t], begin[t + 1]);
  return begin;
}

// Innermost item of [first, last) (sorted by start, properly nested, parents given) containing t.
template <typename T>
std::int32_t innermost_at(const std::vector<T>& items, const std::vector<std::int32_t>& parent,
                          std::size_t first, std::size_t last, std::int64_t t) {
  auto it = std::upper_bound(items.begin() + static_cast<std::ptrdiff_t>(first),
                             items.begin() + static_cast<std::ptrdiff_t>(last), t,
                             [](std::int64_t v, const T& x) { return v < x.start_ns; });
  if (it == items.begin() + static_cast<std::ptrdiff_t>(first)) return -1;
  auto i = static_cast<std::int32_t>(it - items.begin() - 1);
  while (i >= 0 &&
         items[static_cast<std::size_t>(i)].start_ns + items[static_cast<std::size_t>(i)].duration_ns < t) {
    i = parent[static_cast<std::size_t>(i)];
  }
  return i;
}

}  // namespace

void TraceBuilder::add_graph_launch_ops() {
  // With a capture trace the captured ops own the replays (link_activities); without one, the graph launch
  // is the nearest thing the trace has to the op that ran them, and its name says they were replayed.
  if (std::any_of(launches_.begin(), launches_.end(), [](const Launch& l) { return l.captured; })) return;
  for (const auto& l : launches_) {
    if (!l.graph || l.api == 0) continue;
    HostOp op;
    op.thread = l.thread;
    op.start_ns = l.start_ns;
    op.duration_ns = l.duration_ns;
    op.name = l.api;
    ops_.push_back(op);
    ++graph_launch_ops_;
  }
}

void TraceBuilder::sort_inputs() {
  std::sort(ops_.begin(), ops_.end(), by_thread_start<HostOp>);
  std::sort(scopes_.begin(), scopes_.end(), by_thread_start<Scope>);
  std::sort(iterations_.begin(), iterations_.end(),
            [](const Iteration& a, const Iteration& b) { return a.start_ns < b.start_ns; });
  thread_iterations_.assign(threads_.size(), {});
  for (std::size_t i = 0; i < iterations_.size(); ++i) {
    const auto t = iterations_[i].thread;
    if (t >= 0 && static_cast<std::size_t>(t) < thread_iterations_.size())
      thread_iterations_[static_cast<std::size_t>(t)].emplace_back(iterations_[i].start_ns,
                                                                   static_cast<int>(i));
  }
  std::stable_sort(activities_.begin(), activities_.end(),
                   [](const Activity& a, const Activity& b) { return a.start_ns < b.start_ns; });
}

Id TraceBuilder::find_module(std::string_view path) const {
  auto [begin, end] = module_by_hash_.equal_range(std::hash<std::string_view>{}(path));
  for (auto it = begin; it != end; ++it)
    if (modules_[static_cast<std::size_t>(it->second)].path == path) return it->second;
  return kNoId;
}

Id TraceBuilder::module_under(Id parent, std::string path, std::string_view type) {
  Id id = find_module(path);
  if (id != kNoId) {
    auto& m = modules_[static_cast<std::size_t>(id)];
    if (m.type.empty() && !type.empty()) m.type = std::string(type);
    return id;
  }
  id = static_cast<Id>(modules_.size());
  module_by_hash_.emplace(std::hash<std::string_view>{}(path), id);
  modules_.push_back({id, parent, std::move(path), std::string(type)});
  return id;
}

bool TraceBuilder::depth_ok(std::size_t levels) {
  if (!limit_error_.ok()) return false;
  limit_error_ = check_module_depth(info_.source_path, levels);
  return limit_error_.ok();
}

Id TraceBuilder::module(std::string_view path, std::string_view type) {
  // Checked before any ancestor's path is copied: each level's path repeats its parent's, so a path
  // thousands of levels deep would cost depth-squared text.
  if (!depth_ok(static_cast<std::size_t>(path_depth(path)))) return 0;
  Id id = find_module(path);
  if (id != kNoId) return module_under(kNoId, std::string(path), type);
  // The missing ancestors, from the deepest present one down (no recursion: one frame per level).
  std::vector<std::size_t> missing;  // lengths of their paths, deepest first
  Id parent = 0;
  for (std::string_view p = path_parent(path); !p.empty(); p = path_parent(p)) {
    if (Id found = find_module(p); found != kNoId) {
      parent = found;
      break;
    }
    missing.push_back(p.size());
  }
  for (auto it = missing.rbegin(); it != missing.rend(); ++it) {
    parent = module_under(parent, std::string(path.substr(0, *it)), "");
  }
  return module_under(parent, std::string(path), type);
}

void TraceBuilder::build_modules(Linked& linked) {
  // Scopes that carry their path map directly; the others are named from their nesting.
  std::vector<ScopeSpan> spans;
  std::vector<std::size_t> derived;
  spans.reserve(scopes_.size());
  linked.scope_module.resize(scopes_.size());
  for (std::size_t i = 0; i < scopes_.size(); ++i) {
    const auto& s = scopes_[i];
    if (s.is_path) {
      linked.scope_module[i] = module(str(s.instance), str(s.type));
      continue;
    }
    spans.push_back({s.thread, s.start_ns, s.start_ns + s.duration_ns, str(s.instance), str(s.type)});
    derived.push_back(i);
  }
  // Each node's path is its parent's plus one segment (parents come first), built once, into modules_,
  // after its depth passed the one depth rule: a crafted nesting thousands of levels deep is refused
  // before the depth-squared text of its paths is built.
  NamedScopes named = name_scopes(spans, options_.single_top_scope_is_root);
  std::vector<Id> node_module(named.segment.size());
  std::vector<std::size_t> node_depth(named.segment.size());
  for (std::size_t n = 0; n < named.segment.size(); ++n) {
    const std::int32_t p = named.parent[n];
    const Id parent = p < 0 ? 0 : node_module[static_cast<std::size_t>(p)];
    const std::string& segment = named.segment[n];
    if (segment.empty()) {  // the root
      node_module[n] = module("", named.type[n]);
      continue;
    }
    const std::size_t parent_depth = p < 0 ? 0 : node_depth[static_cast<std::size_t>(p)];
    node_depth[n] = parent_depth + 1;
    if (!depth_ok(node_depth[n])) return;
    const std::string& base = modules_[static_cast<std::size_t>(parent)].path;
    std::string path;
    path.reserve(base.size() + 1 + segment.size());
    if (!base.empty()) path.append(base).append(1, '.');
    path += segment;
    node_module[n] = module_under(parent, std::move(path), named.type[n]);
  }
  for (std::size_t k = 0; k < derived.size(); ++k) {
    linked.scope_module[derived[k]] = node_module[static_cast<std::size_t>(named.node[k])];
  }
  linked.scope_begin = thread_offsets(scopes_, threads_.size());
}

void TraceBuilder::nest_ops(Linked& linked) {
  const std::size_t n = ops_.size();
  linked.op_parent.assign(n, -1);
  linked.op_depth.assign(n, 0);
  linked.op_module.assign(n, kNoId);
  linked.op_iteration.assign(n, 0);
  linked.thread_begin = thread_offsets(ops_, threads_.size());

  // Scope parents, for the innermost-scope lookup by time.
  std::vector<std::int32_t> scope_parent(scopes_.size(), -1);
  {
    std::vector<std::int32_t> stack;
    for (std::size_t i = 0; i < scopes_.size(); ++i) {
      const auto& s = scopes_[i];
      while (!stack.empty()) {
        const auto& top = scopes_[static_cast<std::size_t>(stack.back())];
        if (top.thread == s.thread && top.start_ns + top.duration_ns >= s.start_ns + s.duration_ns) break;
        stack.pop_back();
      }
      scope_parent[i] = stack.empty() ? -1 : stack.back();
      stack.push_back(static_cast<std::int32_t>(i));
    }
  }

  std::vector<std::int32_t> stack;
  std::int64_t outside_steps = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const auto& op = ops_[i];
    const std::int64_t end = op.start_ns + op.duration_ns;
    while (!stack.empty()) {
      const auto& top = ops_[static_cast<std::size_t>(stack.back())];
      if (top.thread == op.thread && top.start_ns + top.duration_ns >= end) break;
      if (top.thread == op.thread && top.start_ns + top.duration_ns > op.start_ns) {
        issue(QualityCode::host_op_partial_overlap, str(op.name));
      }
      stack.pop_back();
    }
    if (!stack.empty()) {
      linked.op_parent[i] = stack.back();
      linked.op_depth[i] = linked.op_depth[static_cast<std::size_t>(stack.back())] + 1;
    }
    stack.push_back(static_cast<std::int32_t>(i));

    if (op.has_module_path) {
      linked.op_module[i] = module(str(op.module_path), "");
    } else {
      auto s = innermost_at(scopes_, scope_parent, linked.scope_begin[op.thread],
                            linked.scope_begin[op.thread + 1], op.start_ns);
      while (s >= 0 && scopes_[static_cast<std::size_t>(s)].start_ns +
                               scopes_[static_cast<std::size_t>(s)].duration_ns <
                           end) {
        s = scope_parent[static_cast<std::size_t>(s)];
      }
      if (s >= 0) linked.op_module[i] = linked.scope_module[static_cast<std::size_t>(s)];
    }
    linked.op_iteration[i] = iteration_of_op(op.thread, op.start_ns);
    if (!iterations_.empty() && thread_capture_[op.thread] == 0) {
      const auto& first = iterations_.front();
      const auto& last = iterations_.back();
      if (op.start_ns < first.start_ns || op.start_ns > last.start_ns + last.duration_ns) ++outside_steps;
    }
  }
  if (outside_steps > 0) {
    issues_.insert_or_assign(QualityCode::host_ops_outside_steps,
                             QualityIssue(QualityCode::host_ops_outside_steps, outside_steps));
  }
  // Keep scope parents for activities whose launch has no op.
  scope_parent_ = std::move(scope_parent);
}

int TraceBuilder::iteration_of_op(ThreadId thread, std::int64_t t) const {
  if (thread >= thread_iterations_.size() || thread_iterations_[thread].empty()) return iteration_at(t);
  const auto& own = thread_iterations_[thread];
  auto it =
      std::upper_bound(own.begin(), own.end(), t,
                       [](std::int64_t v, const std::pair<std::int64_t, int>& x) { return v < x.first; });
  return it == own.begin() ? own.front().second : std::prev(it)->second;
}

int TraceBuilder::iteration_at(std::int64_t t) const {
  if (iterations_.empty()) return 0;
  auto it = std::upper_bound(iterations_.begin(), iterations_.end(), t,
                             [](std::int64_t v, const Iteration& x) { return v < x.start_ns; });
  if (it == iterations_.begin()) return 0;
  return static_cast<int>(it - iterations_.begin() - 1);
}

namespace {
// One hash key for an id (External id, correlation) within a process.
std::uint64_t process_key(std::int64_t process, std::int64_t id) {
  return (static_cast<std::uint64_t>(process) * 0x9E3779B97F4A7C15ULL) ^ static_cast<std::uint64_t>(id);
}
}  // namespace

std::int32_t TraceBuilder::op_of_launch(const Linked& linked, const Launch& l, std::int64_t ext,
                                        const std::unordered_map<std::uint64_t, std::int32_t>& op_by_ext,
                                        bool& by_id) const {
  by_id = false;
  if (ext != kNone) {
    auto it = op_by_ext.find(process_key(l.process, ext));
    if (it != op_by_ext.end()) {
      const auto& o = ops_[static_cast<std::size_t>(it->second)];
      if (o.thread == l.thread && o.start_ns <= l.start_ns && l.start_ns <= o.start_ns + o.duration_ns) {
        by_id = true;
        return it->second;
      }
    }
  }
  return innermost_at(ops_, linked.op_parent, linked.thread_begin[l.thread],
                      linked.thread_begin[l.thread + 1], l.start_ns);
}

// Where launches and ops are found by id, and the captured launches a replay draws from.
struct TraceBuilder::LaunchIndex {
  std::unordered_map<std::int64_t, std::int32_t> by_corr;        // -2: ambiguous across processes, -3: twice
  std::unordered_map<std::uint64_t, std::int32_t> by_proc_corr;  // -3: launched twice in the process
  std::unordered_map<std::uint64_t, std::int32_t> op_by_ext;     // ops by (process, External id)
  // Captured launches per kernel name, in launch order; name 0 holds those whose kernel the trace does not
  // name (matched by order alone).
  std::unordered_map<std::uint32_t, std::vector<std::int32_t>> captured;
  // Per graph launch and kernel name: how many replays were matched so far.
  std::unordered_map<std::uint64_t, std::size_t> replayed_so_far;
};

// How each activity was linked, for the data-quality rows.
struct TraceBuilder::LinkCounts {
  std::int64_t by_id = 0, by_time = 0, orphan = 0, no_op = 0, no_correlation = 0;
  std::int64_t replay_matched = 0, replay_by_order = 0, replay_unmatched = 0, replay_at_launch = 0;
};

TraceBuilder::LaunchIndex TraceBuilder::index_launches() const {
  LaunchIndex x;
  x.by_corr.reserve(launches_.size());
  x.by_proc_corr.reserve(launches_.size());
  for (std::size_t i = 0; i < launches_.size(); ++i) {
    const auto& l = launches_[i];
    if (l.captured) continue;  // capture-time correlations belong to another trace
    auto idx = static_cast<std::int32_t>(i);
    auto [it, added] = x.by_corr.try_emplace(l.correlation, idx);
    if (!added && it->second >= 0) {
      it->second = launches_[static_cast<std::size_t>(it->second)].process != l.process ? -2 : -3;
    }
    // A correlation id launched twice in one process cannot say which launch a kernel belongs to: both
    // become ambiguous (a data-quality error) rather than the later one silently winning.
    auto [pit, fresh] = x.by_proc_corr.try_emplace(process_key(l.process, l.correlation), idx);
    if (!fresh) pit->second = -3;
  }
  x.op_by_ext.reserve(ops_.size());
  for (std::size_t i = 0; i < ops_.size(); ++i) {
    if (ops_[i].external_id == kNone) continue;
    x.op_by_ext.try_emplace(process_key(threads_[ops_[i].thread].process, ops_[i].external_id),
                            static_cast<std::int32_t>(i));
  }
  // Launches whose kernel ran while capturing were not captured.
  std::unordered_set<std::int64_t> executed(capture_executed_.begin(), capture_executed_.end());
  std::vector<std::int32_t> order;
  for (std::size_t i = 0; i < launches_.size(); ++i) {
    if (launches_[i].captured && !executed.contains(launches_[i].correlation)) {
      order.push_back(static_cast<std::int32_t>(i));
    }
  }
  std::stable_sort(order.begin(), order.end(), [&](std::int32_t a, std::int32_t b) {
    return launches_[static_cast<std::size_t>(a)].start_ns < launches_[static_cast<std::size_t>(b)].start_ns;
  });
  for (auto i : order) x.captured[launches_[static_cast<std::size_t>(i)].kernel].push_back(i);
  return x;
}

// The launch of an activity by its correlation (-1: none, or one the correlation cannot single out).
std::int32_t TraceBuilder::launch_of(const Activity& a, const LaunchIndex& x) {
  if (a.correlation == kNone) return -1;
  std::int32_t launch = -1;
  if (a.process != kNone) {
    auto it = x.by_proc_corr.find(process_key(a.process, a.correlation));
    if (it != x.by_proc_corr.end()) launch = it->second;
  } else {
    auto it = x.by_corr.find(a.correlation);
    if (it != x.by_corr.end()) launch = it->second;
    if (launch == -2) {
      issue(QualityCode::correlation_in_several_processes);
      return -1;
    }
  }
  if (launch == -3) {
    issue(QualityCode::correlation_launched_twice, "correlation " + std::to_string(a.correlation));
    return -1;
  }
  return launch;
}

// A replay of a graph launch: the next captured launch of this kernel name (or, unnamed, the next one in
// order) gives the op. False when none does (the graph launch's attribution applies).
bool TraceBuilder::link_replay(Linked& linked, LaunchIndex& x, std::size_t i, std::int32_t launch,
                               LinkCounts& counts) {
  const auto& a = activities_[i];
  const auto& l = launches_[static_cast<std::size_t>(launch)];
  std::int32_t cap = -1;
  bool by_order = false;
  for (std::uint32_t name : {a.name, 0U}) {
    auto it = x.captured.find(name);
    if (it == x.captured.end()) continue;
    auto& done = x.replayed_so_far[(static_cast<std::uint64_t>(launch) << 32) | name];
    if (done < it->second.size()) {
      cap = it->second[done++];
      by_order = name == 0;
      break;
    }
  }
  bool unused = false;
  const Launch* c = cap >= 0 ? &launches_[static_cast<std::size_t>(cap)] : nullptr;
  const std::int32_t op = c != nullptr ? op_of_launch(linked, *c, c->external_id, x.op_by_ext, unused) : -1;
  if (op < 0) {
    ++counts.replay_unmatched;
    return false;
  }
  ++(by_order ? counts.replay_by_order : counts.replay_matched);
  linked.act_op[i] = op;
  linked.act_module[i] = linked.op_module[static_cast<std::size_t>(op)];
  linked.act_iteration[i] = iteration_at(l.start_ns);
  if (linked.capture_anchor == kNone || l.start_ns < linked.capture_anchor)
    linked.capture_anchor = l.start_ns;
  return true;
}

// An activity with a launch: the op around the launch (by External id, else by time), else the enclosing
// scope.
void TraceBuilder::link_launch(Linked& linked, const LaunchIndex& x, std::size_t i, std::int32_t launch,
                               LinkCounts& counts) {
  const auto& a = activities_[i];
  const auto& l = launches_[static_cast<std::size_t>(launch)];
  std::int64_t ext = a.external_id != kNone ? a.external_id : l.external_id;
  // A graph launch that is an op of its own: the innermost op at the launch is that op, not the one an
  // External id would name around it.
  const bool at_graph_op = l.graph && graph_launch_ops_ > 0;
  if (at_graph_op) {
    ext = kNone;
    ++counts.replay_at_launch;
  }
  bool id = false;
  const std::int32_t op = op_of_launch(linked, l, ext, x.op_by_ext, id);
  if (op >= 0 && !at_graph_op) ++(id ? counts.by_id : counts.by_time);
  if (op >= 0) {
    linked.act_module[i] = linked.op_module[static_cast<std::size_t>(op)];
    linked.act_iteration[i] = linked.op_iteration[static_cast<std::size_t>(op)];
  } else {
    ++counts.no_op;
    auto s = innermost_at(scopes_, scope_parent_, linked.scope_begin[l.thread],
                          linked.scope_begin[l.thread + 1], l.start_ns);
    if (s >= 0) linked.act_module[i] = linked.scope_module[static_cast<std::size_t>(s)];
    linked.act_iteration[i] = iteration_at(l.start_ns);
  }
  linked.act_op[i] = op;
}

// The captured regions: the outermost ops around the captured launches. A piecewise capture (vLLM) captures
// pieces with eager ops between them (attention, whose kernels ran while capturing): a region runs from
// the first to the last captured outermost op with no eager one between, so the eager ops, which the
// execution run has on its own, are left out rather than counted twice.
void TraceBuilder::mark_capture_region(Linked& linked, const LaunchIndex& x) const {
  struct Root {
    std::int64_t start, end;
    bool eager;
  };
  std::vector<Root> roots;
  auto add_root = [&](const Launch& l, bool eager) {
    bool unused = false;
    auto o = op_of_launch(linked, l, l.external_id, x.op_by_ext, unused);
    while (o >= 0 && linked.op_parent[static_cast<std::size_t>(o)] >= 0)
      o = linked.op_parent[static_cast<std::size_t>(o)];
    if (o < 0) return;
    const auto& r = ops_[static_cast<std::size_t>(o)];
    roots.push_back({r.start_ns, r.start_ns + r.duration_ns, eager});
  };
  for (const auto& [name, list] : x.captured) {
    for (auto c : list) add_root(launches_[static_cast<std::size_t>(c)], false);
  }
  const std::unordered_set<std::int64_t> executed(capture_executed_.begin(), capture_executed_.end());
  for (const auto& l : launches_) {
    if (l.captured && executed.contains(l.correlation)) add_root(l, true);
  }
  // Captured before eager at one start: an op with both kinds of launch stays in its region.
  std::sort(roots.begin(), roots.end(), [](const Root& a, const Root& b) {
    return a.start != b.start ? a.start < b.start : a.eager < b.eager;
  });
  bool open = false;
  for (const Root& r : roots) {
    if (r.eager) {
      open = false;
      continue;
    }
    if (!open) linked.capture_regions.emplace_back(r.start, r.end);
    auto& region = linked.capture_regions.back();
    region.second = std::max(region.second, r.end);
    open = true;
  }
}

void TraceBuilder::note_links(const LinkCounts& counts) {
  auto put = [&](QualityCode code, std::int64_t count, const char* detail) {
    if (count > 0) issues_.insert_or_assign(code, QualityIssue(code, count, detail));
  };
  put(QualityCode::kernels_linked_by_external_id, counts.by_id, "");
  put(QualityCode::graph_replay_matched, counts.replay_matched,
      "matched by kernel name and occurrence within the graph launch");
  put(QualityCode::graph_replay_matched_by_order, counts.replay_by_order,
      "the capture trace does not name the kernels of its launches");
  put(QualityCode::graph_replay_unmatched, counts.replay_unmatched, "attributed to the graph launch instead");
  if (counts.replay_at_launch > 0) {
    issues_.insert_or_assign(
        QualityCode::graph_replay_at_launch,
        QualityIssue(QualityCode::graph_replay_at_launch, counts.replay_at_launch,
                     std::to_string(graph_launch_ops_) + " graph launch" +
                         (graph_launch_ops_ == 1 ? "" : "es") +
                         "; --graph-capture with the capture trace attributes them to the captured ops"));
  }
  put(QualityCode::kernels_linked_by_time, counts.by_time,
      "External id missing or not matching an op around the launch on the same thread");
  if (ops_.empty()) {
    put(QualityCode::kernels_via_enclosing_range, counts.no_op, "");
  } else {
    put(QualityCode::kernels_launched_outside_ops, counts.no_op, "attributed to the enclosing scope, if any");
  }
  put(QualityCode::orphan_kernels, counts.orphan,
      "launched before the profiling window or by an untraced thread");
  put(QualityCode::activities_without_correlation, counts.no_correlation,
      "e.g. range-profiler entries, Nsight Compute rows");
}

void TraceBuilder::link_activities(Linked& linked) {
  LaunchIndex x = index_launches();
  LinkCounts counts;
  const std::size_t n = activities_.size();
  linked.act_op.assign(n, -1);
  linked.act_module.assign(n, kNoId);
  linked.act_iteration.assign(n, 0);
  linked.act_launch.assign(n, -1);
  for (std::size_t i = 0; i < n; ++i) {
    const auto& a = activities_[i];
    const std::int32_t launch = launch_of(a, x);
    linked.act_launch[i] = launch;
    if (launch >= 0 && launches_[static_cast<std::size_t>(launch)].graph && !x.captured.empty() &&
        link_replay(linked, x, i, launch, counts)) {
      continue;
    }
    if (launch >= 0) {
      link_launch(linked, x, i, launch, counts);
    } else if (a.correlation == kNone) {
      ++counts.no_correlation;
      linked.act_iteration[i] = iteration_at(a.start_ns);
    } else {
      ++counts.orphan;
      linked.act_iteration[i] = kOrphanIteration;
    }
  }
  mark_capture_region(linked, x);
  note_links(counts);
}

void TraceBuilder::place_capture_ops(Linked& linked) {
  linked.op_written.assign(ops_.size(), 1);
  std::int64_t kept = 0, left_out = 0;
  const int iteration = linked.capture_anchor == kNone ? 0 : iteration_at(linked.capture_anchor);
  for (std::size_t i = 0; i < ops_.size(); ++i) {
    if (thread_capture_[ops_[i].thread] == 0) continue;
    auto root = static_cast<std::int32_t>(i);
    while (linked.op_parent[static_cast<std::size_t>(root)] >= 0)
      root = linked.op_parent[static_cast<std::size_t>(root)];
    const auto& r = ops_[static_cast<std::size_t>(root)];
    bool inside = false;
    if (linked.capture_anchor != kNone) {
      // The last region starting at or before the op's root, and whether the root ends inside it.
      auto it = std::upper_bound(linked.capture_regions.begin(), linked.capture_regions.end(), r.start_ns,
                                 [](std::int64_t t, const auto& region) { return t < region.first; });
      inside = it != linked.capture_regions.begin() && r.start_ns + r.duration_ns <= std::prev(it)->second;
    }
    linked.op_written[i] = inside ? 1 : 0;
    linked.op_iteration[i] = iteration;
    ++(inside ? kept : left_out);
  }
  auto put = [&](QualityCode code, std::int64_t count, const char* detail) {
    if (count > 0) issues_.insert_or_assign(code, QualityIssue(code, count, detail));
  };
  put(QualityCode::capture_ops_placed, kept, "their host time was spent while capturing, not in this run");
  put(linked.capture_anchor == kNone ? QualityCode::capture_ops_unmatched
                                     : QualityCode::capture_ops_outside_region,
      left_out, "");
}

void TraceBuilder::compute_flops(Linked& linked) {
  const auto& registry = FlopsRegistry::builtin();
  const std::size_t n = ops_.size();
  linked.op_source.assign(n, FlopsSource::kNone);
  linked.op_flops.assign(n, nullptr);
  // Ops are in parent-before-child order (a parent's index is below its children's).
  std::vector<char> covered(n, 0);
  for (std::size_t i = 0; i < n; ++i) {
    const auto& op = ops_[i];
    std::uint64_t k = (static_cast<std::uint64_t>(op.name) << 32) | op.args;
    auto it = linked.flops_cache.find(k);
    if (it == linked.flops_cache.end()) {
      it = linked.flops_cache.emplace(k, registry.evaluate(str(op.name), args_[op.args])).first;
    }
    const FlopsResult* r = &it->second;
    linked.op_flops[i] = r;
    if (r->invalid_args) issue(QualityCode::impossible_op_shapes, str(op.name));
    auto parent = linked.op_parent[i];
    bool above = parent >= 0 && covered[static_cast<std::size_t>(parent)] != 0;
    linked.op_source[i] = nested_flops_source(above, r->known);
    covered[i] = linked.op_source[i] != FlopsSource::kNone;
  }
}

Status TraceBuilder::finish(RunSink& sink, Progress* progress) {
  FS_RETURN_IF_ERROR(limit_error_);  // a limit hit while reading: nothing is written
  drop_python_scopes_beside_paths();
  FS_RETURN_IF_ERROR(find_iterations());
  add_graph_launch_ops();
  sort_inputs();
  Linked linked;
  // Time origin: the earliest event of any kind.
  std::int64_t origin = INT64_MAX;
  // (the capture trace's events are not this run's and do not count).
  for (const auto& o : ops_) {
    if (thread_capture_[o.thread] == 0) origin = std::min(origin, o.start_ns);
  }
  for (const auto& s : scopes_) {
    if (thread_capture_[s.thread] == 0) origin = std::min(origin, s.start_ns);
  }
  for (const auto& a : activities_) origin = std::min(origin, a.start_ns);
  for (const auto& l : launches_) {
    if (!l.captured) origin = std::min(origin, l.start_ns);
  }
  linked.origin = origin == INT64_MAX ? 0 : origin;

  if (ops_.empty() && activities_.empty() && scopes_.empty()) {
    if (dropped_ > 0) {
      return InvalidArgument(info_.source_path + ": no events to import: all " + std::to_string(dropped_) +
                             " had an impossible time (negative duration or far out of range)");
    }
    return InvalidArgument(info_.source_path + ": no events to import (an empty trace)");
  }
  build_modules(linked);
  FS_RETURN_IF_ERROR(limit_error_);
  nest_ops(linked);
  link_activities(linked);
  place_capture_ops(linked);
  compute_flops(linked);
  return write(sink, linked, progress);
}

void TraceBuilder::make_op(const Linked& linked, std::uint32_t i, Id id, const std::vector<Id>& op_id,
                           OpRecord& op) const {
  const auto& h = ops_[i];
  {
    // Every field back to its default, the heap memory kept.
    std::string name = std::move(op.name), note = std::move(op.flops_note);
    std::vector<OpArg> args = std::move(op.args);
    op = OpRecord{};
    op.name = std::move(name);
    op.flops_note = std::move(note);
    op.flops_note.clear();
    op.args = std::move(args);
  }
  op.id = id;
  op.iteration = linked.op_iteration[i];
  op.sequence = id;
  op.name.assign(str(h.name));
  op.thread = threads_[h.thread].tid;
  const bool capture = thread_capture_[h.thread] != 0;
  op.start_ns = (capture ? linked.capture_anchor : h.start_ns) - linked.origin;
  op.duration_ns = capture ? 0 : h.duration_ns;
  op.module_id = linked.op_module[i];
  op.parent_op_id = linked.op_parent[i] >= 0 ? op_id[static_cast<std::size_t>(linked.op_parent[i])] : kNoId;
  op.depth = linked.op_depth[i];
  op.args = args_[h.args];
  op.flops_source = linked.op_source[i];
  if (linked.op_flops[i] != nullptr) set_op_flops(op, *linked.op_flops[i]);
}

void TraceBuilder::make_kernel(const Linked& linked, std::size_t i, const std::vector<Id>& op_id,
                               KernelRecord& k) const {
  const auto& a = activities_[i];
  {
    std::string name = std::move(k.name), launch = std::move(k.launch.name);
    k = KernelRecord{};
    k.name = std::move(name);
    k.launch.name = std::move(launch);
    k.launch.name.clear();
  }
  k.id = static_cast<Id>(i);
  k.kind = a.kind;
  k.name.assign(str(a.name));
  k.device = a.device;
  k.stream = a.stream;
  k.start_ns = a.start_ns - linked.origin;
  k.duration_ns = a.duration_ns;
  k.grid = a.grid;
  k.block = a.block;
  k.correlation = a.correlation == kNone ? 0 : a.correlation;
  k.iteration = linked.act_iteration[i];
  k.op_id = linked.act_op[i] >= 0 ? op_id[static_cast<std::size_t>(linked.act_op[i])] : kNoId;
  k.module_id = linked.act_module[i];
  k.graph_id = a.graph_id;
  k.graph_node_id = a.graph_node_id;
  k.bytes = a.bytes;
  if (const std::int32_t l = linked.act_launch[i]; l >= 0) {
    const Launch& launch = launches_[static_cast<std::size_t>(l)];
    k.launch.name.assign(str(launch.name));
    k.launch.start_ns = launch.start_ns - linked.origin;
    k.launch.duration_ns = launch.duration_ns;
    k.launch.thread = threads_[launch.thread].tid;
  }
  if (a.counters >= 0) {
    const auto& c = counters_[static_cast<std::size_t>(a.counters)];
    k.has_counters = true;
    k.flops_fp64 = c.flops_fp64;
    k.flops_fp32 = c.flops_fp32;
    k.flops_fp16 = c.flops_fp16;
    k.tensor_ops = c.tensor_ops;
    k.tensor_pipe_inst = c.tensor_pipe_inst;
    k.dram_bytes = c.dram_bytes;
    k.dram_bytes_read = c.dram_bytes_read;
    k.dram_bytes_written = c.dram_bytes_written;
    k.l2_bytes = c.l2_bytes;
  }
}

Status TraceBuilder::write(RunSink& sink, const Linked& linked, Progress* progress) {
  info_.iterations = std::max<int>(1, static_cast<int>(iterations_.size()));
  FS_RETURN_IF_ERROR(sink.begin(info_));
  FS_RETURN_IF_ERROR(sink.add_modules(modules_));

  // Op ids follow global start order (capture ops at their place, in capture order); ops left out get none.
  std::vector<std::uint32_t> order;
  order.reserve(ops_.size());
  for (std::uint32_t i = 0; i < ops_.size(); ++i) {
    if (linked.op_written[i] != 0) order.push_back(i);
  }
  auto placed = [&](std::uint32_t i) {
    return thread_capture_[ops_[i].thread] != 0 ? std::pair{linked.capture_anchor, 1}
                                                : std::pair{ops_[i].start_ns, 0};
  };
  std::stable_sort(order.begin(), order.end(), [&](std::uint32_t a, std::uint32_t b) {
    if (placed(a) != placed(b)) return placed(a) < placed(b);
    if (ops_[a].start_ns != ops_[b].start_ns) return ops_[a].start_ns < ops_[b].start_ns;
    return ops_[a].duration_ns > ops_[b].duration_ns;
  });
  std::vector<Id> op_id(ops_.size(), kNoId);
  for (std::size_t r = 0; r < order.size(); ++r) op_id[order[r]] = static_cast<Id>(r);

  // Records are built on a second thread while this one hands them to the sink: conversion and storage
  // (SQLite) each get a core. At most a few batches are in flight, which bounds memory. Stored batches come
  // back to the producer and their records are refilled, so that no row allocates its name, arguments and
  // shapes anew (malloc and free were 7% of the import's CPU time).
  constexpr std::size_t kBatch = 1 << 13;
  constexpr std::size_t kInFlight = 2;
  BatchQueue queue(kInFlight);
  BatchQueue spare(kInFlight + 2);  // every batch that can exist: pushing back never waits
  std::atomic<bool> cancel{false};
  std::thread producer([&] {
    auto fill = [&](auto& records, std::size_t count, auto&& make_one, auto&& push) {
      std::size_t n = 0;
      for (std::size_t r = 0; r < count && !cancel; ++r) {
        if (n == records.size()) records.emplace_back();
        make_one(r, records[n++]);
        if (n == kBatch || r + 1 == count) {
          records.resize(n);
          push();
          n = 0;
        }
      }
    };
    bool kernels_now = false;
    auto take = [&] {
      Batch b;
      if (auto reused = spare.try_pop()) b = std::move(*reused);
      if (kernels_now) std::vector<OpRecord>().swap(b.ops);  // op records are not needed again: memory back
      return b;
    };
    Batch batch = take();
    fill(
        batch.ops, order.size(),
        [&](std::size_t r, OpRecord& op) { make_op(linked, order[r], static_cast<Id>(r), op_id, op); },
        [&] {
          batch.of_kernels = false;
          queue.push(std::move(batch));
          batch = take();
        });
    kernels_now = true;
    batch = take();
    fill(
        batch.kernels, activities_.size(),
        [&](std::size_t i, KernelRecord& k) { make_kernel(linked, i, op_id, k); },
        [&] {
          batch.of_kernels = true;
          queue.push(std::move(batch));
          batch = take();
        });
    queue.close();
  });
  Status status;
  std::uint64_t done = 0;
  while (auto batch = queue.pop()) {
    if (!status.ok()) continue;  // drain so that the producer never blocks
    done += batch->of_kernels ? batch->kernels.size() : batch->ops.size();
    status = batch->of_kernels ? sink.add_kernels(batch->kernels) : sink.add_ops(batch->ops);
    if (!status.ok()) cancel = true;
    if (progress != nullptr) progress->update(done);
    spare.push(std::move(*batch));
  }
  producer.join();
  FS_RETURN_IF_ERROR(status);

  FS_RETURN_IF_ERROR(write_memory_events(sink, linked.origin));
  std::vector<QualityIssue> quality;
  for (const auto& [code, q] : issues_) quality.push_back(q);
  FS_RETURN_IF_ERROR(sink.add_quality(quality));
  collect_trace_extras(linked.origin, linked.act_launch);
  if (!extras_.host_events.empty() || !extras_.device_properties.empty())
    FS_RETURN_IF_ERROR(sink.add_trace_extras(extras_));
  // Every row is with the sink: the builder's tables go before the sink finishes, so that what finishing
  // takes (summary facts, index builds) does not stack on them (20 MB of a 100k-kernel import's peak).
  std::vector<HostOp>().swap(ops_);
  std::vector<Activity>().swap(activities_);
  std::vector<Launch>().swap(launches_);
  std::vector<HostEventRecord>().swap(extras_.host_events);
  std::vector<Scope>().swap(scopes_);
  std::vector<Scope>().swap(annotations_);
  std::vector<std::vector<OpArg>>().swap(args_);
  decltype(args_index_)().swap(args_index_);
  return sink.finish();
}

Status TraceBuilder::write_memory_events(RunSink& sink, std::int64_t origin) {
  if (memory_.empty()) return {};
  // Stable: events of one instant keep the trace's order (an allocation and the free that follows it).
  std::stable_sort(memory_.begin(), memory_.end(),
                   [](const auto& x, const auto& y) { return x.first.ts_ns < y.first.ts_ns; });
  std::vector<MemoryEvent> events;
  events.reserve(memory_.size());
  for (const auto& [m, thread] : memory_) {
    MemoryEvent& e = events.emplace_back(m);
    e.ts_ns = m.ts_ns - origin;  // the ops' clock: times_ok kept both far from overflow
    e.thread = threads_[thread].tid;
  }
  decltype(memory_)().swap(memory_);
  return sink.add_memory_events(events);
}

}  // namespace flopscope
