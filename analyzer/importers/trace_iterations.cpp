// Where the iterations of an imported trace come from (TraceBuilder::find_iterations). A trace of several
// forward passes without profiler steps was one iteration with every module called N times, so percentiles
// and the heatmap had one column. The rules, first that applies:
//   1. --iteration-marker REGEX: every outermost host range whose name matches;
//   2. ProfilerStep#N ranges (read by the importer as they come);
//   3. a user annotation (record_function) that repeats: the repeated name whose ranges hold the most ops;
//   4. CUDA-graph replays: each launch of the first graph replayed starts an iteration;
//   5. repeated calls of the top-level module (the outermost module range, one name, two calls or more).
// Ranges of rules 3-5 start iterations: an op between two of them belongs to the earlier one, as with steps.
#include <algorithm>
#include <map>
#include <regex>
#include <unordered_map>

#include "analyzer/importers/iteration_marker.h"
#include "analyzer/importers/trace_builder.h"

namespace flopscope {
namespace {

struct Range {
  std::uint32_t thread = 0;
  std::int64_t start = 0, duration = 0;
  std::uint32_t name = 0;  // interned
};

// The end of the last host event: the last iteration of rules 3-5 runs to it.
template <typename Ops, typename Launches>
std::int64_t last_host_end(const Ops& ops, const Launches& launches) {
  std::int64_t end = 0;
  for (const auto& o : ops) end = std::max(end, o.start_ns + o.duration_ns);
  for (const auto& l : launches) end = std::max(end, l.start_ns + l.duration_ns);
  return end;
}

// Iterations that each start at one of `starts` (ascending) and run to the next, the last to `end`, on
// every thread: what runs between two passes belongs to the earlier one, as with steps.
template <typename Iterations>
void iterations_from_starts(const std::vector<std::int64_t>& starts, std::int64_t end, Iterations& out) {
  for (std::size_t i = 0; i < starts.size(); ++i) {
    const std::int64_t stop = i + 1 < starts.size() ? starts[i + 1] : std::max(end, starts[i]);
    out.push_back({static_cast<std::int64_t>(i), starts[i], stop - starts[i], -1});
  }
}

// A guessed rule (3 or 5) must not leave the work out: it is refused when more than a tenth of the host
// ops start before its first iteration (a benchmark's cache flush after each pass repeats too, and starting
// iterations there dropped the first pass: AlexNet's kept 88 of 251 ops).
template <typename Ops>
bool leaves_out_work(const Ops& ops, std::int64_t first_start) {
  const auto before =
      std::count_if(ops.begin(), ops.end(), [&](const auto& o) { return o.start_ns < first_start; });
  return before * 10 > static_cast<std::int64_t>(ops.size());
}

// The ranges not inside another of the list on their thread, in start order.
std::vector<Range> outermost(std::vector<Range> ranges) {
  std::sort(ranges.begin(), ranges.end(), [](const Range& a, const Range& b) {
    if (a.thread != b.thread) return a.thread < b.thread;
    return a.start != b.start ? a.start < b.start : a.duration > b.duration;
  });
  std::vector<Range> out;
  for (const Range& r : ranges) {
    if (!out.empty() && out.back().thread == r.thread && r.start < out.back().start + out.back().duration) {
      continue;  // inside (or overlapping) the last range kept on this thread
    }
    out.push_back(r);
  }
  std::stable_sort(out.begin(), out.end(), [](const Range& a, const Range& b) { return a.start < b.start; });
  return out;
}

std::string quoted(const std::string& s) {
  return "'" + s.substr(0, 80) + (s.size() > 80 ? "...'" : "'");
}

}  // namespace

Status TraceBuilder::set_iteration_marker(const std::string& regex) {
  if (std::string problem = iteration_marker_problem(regex); !problem.empty())
    return InvalidArgument(info_.source_path + ": --iteration-marker " + problem);
  marker_ = regex;
  return {};
}

Status TraceBuilder::find_iterations() {
  if (!marker_.empty()) {
    if (iterations_from_marker()) return {};
    return InvalidArgument(info_.source_path + ": --iteration-marker " + quoted(marker_) +
                           " matches no op, annotation or module range of the trace");
  }
  if (!iterations_.empty()) {
    info_.iterations_from = "ProfilerStep#";
    return {};
  }
  if (iterations_from_annotations() || iterations_from_graph_replays() || iterations_from_top_scopes()) {
    return {};
  }
  return {};
}

bool TraceBuilder::iterations_from_marker() {
  const std::regex re(marker_);
  std::unordered_map<std::uint32_t, bool> matches;  // by interned name: a million ops carry few names
  auto match = [&](std::uint32_t name) {
    auto [it, fresh] = matches.try_emplace(name, false);
    if (fresh) it->second = std::regex_search(str(name), re);
    return it->second;
  };
  std::vector<Range> found;
  auto take = [&](const auto& items, auto name_of) {
    for (const auto& x : items) {
      if (thread_capture_[x.thread] == 0 && match(name_of(x))) {
        found.push_back({x.thread, x.start_ns, x.duration_ns, name_of(x)});
      }
    }
  };
  take(ops_, [](const HostOp& o) { return o.name; });
  take(annotations_, [](const Scope& s) { return s.instance; });
  take(scopes_, [](const Scope& s) { return s.instance; });
  found = outermost(std::move(found));
  if (found.empty()) return false;
  iterations_.clear();
  for (std::size_t i = 0; i < found.size(); ++i) {
    iterations_.push_back({static_cast<std::int64_t>(i), found[i].start, found[i].duration, found[i].thread});
  }
  info_.iterations_from = "--iteration-marker " + quoted(marker_);
  return true;
}

bool TraceBuilder::iterations_from_annotations() {
  std::map<std::uint32_t, std::vector<Range>> by_name;
  for (const Scope& a : annotations_) {
    if (thread_capture_[a.thread] == 0)
      by_name[a.instance].push_back({a.thread, a.start_ns, a.duration_ns, a.instance});
  }
  // A pass of the model runs ops: of the names that repeat, the one whose ranges hold the most ops (then
  // the most time). A benchmark's cache flush between passes repeats too, and may take longer.
  std::vector<std::int64_t> op_starts;
  for (const HostOp& o : ops_) {
    if (thread_capture_[o.thread] == 0) op_starts.push_back(o.start_ns);
  }
  std::sort(op_starts.begin(), op_starts.end());
  auto ops_in = [&](const Range& r) {
    auto first = std::lower_bound(op_starts.begin(), op_starts.end(), r.start);
    auto last = std::upper_bound(first, op_starts.end(), r.start + r.duration);
    return static_cast<std::int64_t>(last - first);
  };
  std::uint32_t best = 0;
  std::pair<std::int64_t, std::int64_t> best_score{-1, -1};  // (ops, time)
  for (auto& [name, ranges] : by_name) {
    ranges = outermost(std::move(ranges));  // a name nested in itself counts once
    if (ranges.size() < 2) continue;
    std::pair<std::int64_t, std::int64_t> score{0, 0};
    for (const Range& r : ranges) {
      score.first += ops_in(r);
      score.second += r.duration;
    }
    if (score > best_score) {
      best = name;
      best_score = score;
    }
  }
  if (best_score.first <= 0) return false;  // ranges that hold no op mark no pass of the model
  std::vector<std::int64_t> starts;
  for (const Range& r : by_name[best]) starts.push_back(r.start);
  if (leaves_out_work(ops_, starts.front())) return false;
  iterations_from_starts(starts, last_host_end(ops_, launches_), iterations_);
  info_.iterations_from = "repeated annotation " + quoted(str(best));
  return true;
}

bool TraceBuilder::iterations_from_graph_replays() {
  std::unordered_map<std::int64_t, std::int64_t> graph_of;  // correlation -> graph id of its kernels
  for (const Activity& a : activities_) {
    if (a.graph_id != 0 && a.correlation != kNone) graph_of.try_emplace(a.correlation, a.graph_id);
  }
  std::vector<const Launch*> launches;
  for (const Launch& l : launches_) {
    if (l.graph && !l.captured && thread_capture_[l.thread] == 0) launches.push_back(&l);
  }
  std::stable_sort(launches.begin(), launches.end(),
                   [](const Launch* a, const Launch* b) { return a->start_ns < b->start_ns; });
  if (launches.size() < 2) return false;
  // A piecewise capture replays several graphs per pass: a pass begins with the first one's replay.
  auto graph = [&](const Launch* l) {
    auto it = graph_of.find(l->correlation);
    return it == graph_of.end() ? 0 : it->second;
  };
  const std::int64_t first = graph(launches.front());
  std::erase_if(launches, [&](const Launch* l) { return graph(l) != first; });
  if (launches.size() < 2) return false;
  std::vector<std::int64_t> starts;
  for (const Launch* l : launches) starts.push_back(l->start_ns);
  iterations_from_starts(starts, last_host_end(ops_, launches_), iterations_);
  info_.iterations_from = "CUDA-graph replays" + (first != 0 ? " of graph " + std::to_string(first) : "");
  return true;
}

bool TraceBuilder::iterations_from_top_scopes() {
  std::vector<Range> ranges;
  for (const Scope& s : scopes_) {
    if (thread_capture_[s.thread] == 0) ranges.push_back({s.thread, s.start_ns, s.duration_ns, s.instance});
  }
  ranges = outermost(std::move(ranges));
  if (ranges.size() < 2) return false;
  // One module called again and again; two different top-level modules are parts of one pass.
  if (std::any_of(ranges.begin(), ranges.end(), [&](const Range& r) { return r.name != ranges[0].name; })) {
    return false;
  }
  std::vector<std::int64_t> starts;
  for (const Range& r : ranges) starts.push_back(r.start);
  if (leaves_out_work(ops_, starts.front())) return false;
  iterations_from_starts(starts, last_host_end(ops_, launches_), iterations_);
  info_.iterations_from = "repeated top-level module calls (" + quoted(str(ranges[0].name)) + ")";
  return true;
}

}  // namespace flopscope
