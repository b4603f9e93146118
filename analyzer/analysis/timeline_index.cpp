#include "analyzer/analysis/timeline_index.h"

#include <algorithm>
#include <limits>
#include <map>
#include <unordered_map>

#include "analyzer/iterations.h"

namespace flopscope {

namespace {

class Interner {
 public:
  explicit Interner(std::vector<std::string>& names) : names_(names) {}
  std::int32_t get(const std::string& s) {
    // Runs repeat names back to back (a layer's kernels, a module's ops): skip the hash when they do.
    if (last_ >= 0 && names_[static_cast<std::size_t>(last_)] == s) return last_;
    auto [it, inserted] = ids_.try_emplace(s, static_cast<std::int32_t>(names_.size()));
    if (inserted) names_.push_back(s);
    last_ = it->second;
    return it->second;
  }

 private:
  std::vector<std::string>& names_;
  std::unordered_map<std::string, std::int32_t> ids_;
  std::int32_t last_ = -1;
};

template <typename T, typename Less>
void sort_if_needed(std::vector<T>& v, Less less) {
  if (!std::is_sorted(v.begin(), v.end(), less)) std::stable_sort(v.begin(), v.end(), less);
}

// Lanes keyed by K, in key order, filled in record order (records of one lane mostly come back to back).
template <typename K>
class LaneSet {
 public:
  template <typename MakeLane>
  TimelineLane& at(const K& key, MakeLane make) {
    if (lanes_.empty() || last_ != key) {
      last_ = key;
      auto [it, inserted] = index_.try_emplace(key, lanes_.size());
      if (inserted) lanes_.push_back(make());
      last_lane_ = it->second;
    }
    return lanes_[last_lane_];
  }
  void move_to(std::vector<TimelineLane>& out) {
    for (auto& [key, i] : index_) out.push_back(std::move(lanes_[i]));
  }

 private:
  std::map<K, std::size_t> index_;
  std::vector<TimelineLane> lanes_;
  K last_{};
  std::size_t last_lane_ = 0;
};

// One lane per (thread, depth) for ops up to max_depth.
void add_host_lanes(const RunData& run, int max_depth, Interner& names, std::vector<TimelineLane>& out) {
  LaneSet<std::pair<std::int64_t, int>> lanes;
  for (const auto& op : run.ops) {
    if (op.depth > max_depth) continue;
    TimelineLane& lane = lanes.at({op.thread, op.depth}, [&] {
      TimelineLane l;
      l.label = "thread " + std::to_string(op.thread) + " depth " + std::to_string(op.depth);
      l.events.reserve(run.ops.size() / 2);
      return l;
    });
    lane.events.push_back({op.start_ns, op.duration_ns, names.get(op.name), false, op.module_id});
  }
  lanes.move_to(out);
}

// One lane per (device, stream); orphan kernels marked as such.
void add_device_lanes(const RunData& run, Interner& names, std::vector<TimelineLane>& out) {
  LaneSet<std::pair<int, std::int64_t>> lanes;
  for (const auto& k : run.kernels) {
    TimelineLane& lane = lanes.at({k.device, k.stream}, [&] {
      TimelineLane l;
      l.label = "gpu " + std::to_string(k.device) + " stream " + std::to_string(k.stream);
      l.is_device = true;
      l.events.reserve(run.kernels.size());
      return l;
    });
    lane.events.push_back({k.start_ns, k.duration_ns, names.get(k.name), is_orphan(k), k.module_id});
  }
  lanes.move_to(out);
}

// The module lane: consecutive outermost ops of one module become one span, so the timeline says which
// part of the model runs when. Empty without ops.
TimelineLane module_lane(const RunData& run, Interner& names) {
  std::unordered_map<Id, std::int32_t> module_name;
  for (const auto& m : run.modules) module_name[m.id] = names.get(m.path.empty() ? "(model)" : m.path);
  const std::int32_t unattributed = names.get("(unattributed)");
  TimelineLane modules;
  modules.label = "modules";
  std::vector<const OpRecord*> outer;
  for (const auto& op : run.ops)
    if (op.depth == 0) outer.push_back(&op);
  sort_if_needed(outer, [](const OpRecord* x, const OpRecord* y) {
    return x->thread != y->thread ? x->thread < y->thread : x->start_ns < y->start_ns;
  });
  Id last_module = kNoId;
  std::int32_t name = unattributed;
  for (const OpRecord* op : outer) {
    if (op->module_id != last_module) {
      last_module = op->module_id;
      auto found = module_name.find(op->module_id);
      name = found == module_name.end() ? unattributed : found->second;
    }
    auto& ev = modules.events;
    if (!ev.empty() && ev.back().name == name && op->start_ns >= ev.back().start) {
      ev.back().duration = std::max(ev.back().duration, op->start_ns + op->duration_ns - ev.back().start);
      continue;
    }
    ev.push_back({op->start_ns, op->duration_ns, name, false, op->module_id});
  }
  return modules;
}

}  // namespace

TimelineIndex TimelineIndex::build(const RunData& run, int max_depth) {
  TimelineIndex t;
  Interner names(t.names_);
  // Lanes are numbered in this order: the module lane on top, host threads by (thread, depth), then
  // devices by (device, stream); names are interned in record order (host, device, modules).
  std::vector<TimelineLane> host, device;
  add_host_lanes(run, max_depth, names, host);
  add_device_lanes(run, names, device);
  TimelineLane modules = module_lane(run, names);
  if (!modules.events.empty()) t.lanes_.push_back(std::move(modules));
  for (auto& l : host) t.lanes_.push_back(std::move(l));
  for (auto& l : device) t.lanes_.push_back(std::move(l));
  t.finish(run);
  return t;
}

void TimelineIndex::finish(const RunData& run) {
  begin_ = std::numeric_limits<std::int64_t>::max();
  end_ = std::numeric_limits<std::int64_t>::min();
  for (auto& lane : lanes_) {
    sort_if_needed(lane.events,
                   [](const TimelineEvent& x, const TimelineEvent& y) { return x.start < y.start; });
    for (const auto& e : lane.events) {
      lane.max_duration = std::max(lane.max_duration, e.duration);
      begin_ = std::min(begin_, e.start);
      end_ = std::max(end_, e.start + e.duration);
    }
  }
  if (begin_ > end_) begin_ = end_ = 0;
  const std::optional<int> first_iteration = IterationIndex(run).first();
  first_begin_ = std::numeric_limits<std::int64_t>::max();
  first_end_ = std::numeric_limits<std::int64_t>::min();
  auto widen = [&](int iteration, std::int64_t start, std::int64_t duration) {
    if (iteration != first_iteration) return;
    first_begin_ = std::min(first_begin_, start);
    first_end_ = std::max(first_end_, start + duration);
  };
  for (const auto& op : run.ops) widen(op.iteration, op.start_ns, op.duration_ns);
  for (const auto& k : run.kernels)
    if (!is_orphan(k)) widen(k.iteration, k.start_ns, k.duration_ns);
  if (first_begin_ >= first_end_) {
    first_begin_ = begin_;
    first_end_ = end_;
  }
}

std::size_t TimelineIndex::event_count() const {
  std::size_t n = 0;
  for (const auto& l : lanes_) n += l.events.size();
  return n;
}

void TimelineIndex::query(std::size_t lane, std::int64_t t0, std::int64_t t1, double ns_per_px,
                          std::vector<TimelineSpan>& out) const {
  out.clear();
  if (lane >= lanes_.size()) return;
  const auto& ev = lanes_[lane].events;
  // Events that start up to max_duration before t0 may still reach into the window.
  auto first = std::lower_bound(ev.begin(), ev.end(), t0 - lanes_[lane].max_duration,
                                [](const TimelineEvent& e, std::int64_t t) { return e.start < t; });
  const double px = std::max(ns_per_px, 1e-9);
  for (auto it = first; it != ev.end() && it->start < t1; ++it) {
    std::int64_t e_end = it->start + it->duration;
    if (e_end < t0) continue;
    bool small = static_cast<double>(it->duration) < px;
    auto index = static_cast<std::size_t>(it - ev.begin());
    if (small && !out.empty() && static_cast<double>(it->start) <= static_cast<double>(out.back().end) + px &&
        (out.back().name < 0 || static_cast<double>(out.back().end - out.back().start) < px)) {
      auto& agg = out.back();  // merge into the previous small span (it becomes an aggregate)
      agg.end = std::max(agg.end, e_end);
      agg.count += 1;
      agg.name = -1;
      continue;
    }
    out.push_back({it->start, e_end, it->name, 1, index});
  }
}

std::int64_t TimelineIndex::event_at(std::size_t lane, std::int64_t t, std::int64_t slack_ns) const {
  if (lane >= lanes_.size()) return -1;
  const auto& ev = lanes_[lane].events;
  auto it = std::upper_bound(ev.begin(), ev.end(), t + slack_ns,
                             [](std::int64_t x, const TimelineEvent& e) { return x < e.start; });
  std::int64_t best = -1;
  // Walk back over events that could still cover t; prefer the latest-starting one (innermost).
  for (auto back = it; back != ev.begin();) {
    --back;
    if (back->start + lanes_[lane].max_duration + slack_ns < t) break;
    if (back->start - slack_ns <= t && t <= back->start + back->duration + slack_ns) {
      best = back - ev.begin();
      break;
    }
  }
  return best;
}

}  // namespace flopscope
