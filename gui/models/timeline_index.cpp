#include "gui/models/timeline_index.h"

#include <algorithm>
#include <limits>
#include <map>
#include <unordered_map>

#include "analyzer/iterations.h"

namespace flopscope::gui {

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

}  // namespace

TimelineIndex TimelineIndex::build(const RunData& run, int max_depth) {
  TimelineIndex t;
  Interner names(t.names_);
  std::map<std::pair<std::int64_t, int>, std::size_t> host_lane;    // (thread, depth)
  std::map<std::pair<int, std::int64_t>, std::size_t> device_lane;  // (device, stream)
  std::vector<TimelineLane> host, device;
  std::pair<std::int64_t, int> last_host{-1, -1};
  std::size_t last_host_lane = 0;
  for (const auto& op : run.ops) {
    if (op.depth > max_depth) continue;
    if (host.empty() || last_host != std::make_pair(op.thread, op.depth)) {
      last_host = {op.thread, op.depth};
      auto [it, inserted] = host_lane.try_emplace(last_host, host.size());
      if (inserted) {
        host.emplace_back();
        host.back().label = "thread " + std::to_string(op.thread) + " depth " + std::to_string(op.depth);
        host.back().events.reserve(run.ops.size() / 2);
      }
      last_host_lane = it->second;
    }
    host[last_host_lane].events.push_back(
        {op.start_ns, op.duration_ns, names.get(op.name), false, op.module_id});
  }
  std::pair<int, std::int64_t> last_device{-1, -1};
  std::size_t last_device_lane = 0;
  for (const auto& k : run.kernels) {
    if (device.empty() || last_device != std::make_pair(k.device, k.stream)) {
      last_device = {k.device, k.stream};
      auto [it, inserted] = device_lane.try_emplace(last_device, device.size());
      if (inserted) {
        device.emplace_back();
        device.back().label = "gpu " + std::to_string(k.device) + " stream " + std::to_string(k.stream);
        device.back().is_device = true;
        device.back().events.reserve(run.kernels.size());
      }
      last_device_lane = it->second;
    }
    device[last_device_lane].events.push_back(
        {k.start_ns, k.duration_ns, names.get(k.name), is_orphan(k), k.module_id});
  }
  // A module lane on top: consecutive outermost ops of one module become one span, so the timeline says
  // which part of the model runs when.
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
  if (!modules.events.empty()) t.lanes_.push_back(std::move(modules));
  // Then host threads by (thread, depth), then devices by (device, stream).
  for (auto& [key, i] : host_lane) t.lanes_.push_back(std::move(host[i]));
  for (auto& [key, i] : device_lane) t.lanes_.push_back(std::move(device[i]));
  t.begin_ = std::numeric_limits<std::int64_t>::max();
  t.end_ = std::numeric_limits<std::int64_t>::min();
  for (auto& lane : t.lanes_) {
    sort_if_needed(lane.events,
                   [](const TimelineEvent& x, const TimelineEvent& y) { return x.start < y.start; });
    for (const auto& e : lane.events) {
      lane.max_duration = std::max(lane.max_duration, e.duration);
      t.begin_ = std::min(t.begin_, e.start);
      t.end_ = std::max(t.end_, e.start + e.duration);
    }
  }
  if (t.begin_ > t.end_) t.begin_ = t.end_ = 0;
  const std::optional<int> first_iteration = IterationIndex(run).first();
  t.first_begin_ = std::numeric_limits<std::int64_t>::max();
  t.first_end_ = std::numeric_limits<std::int64_t>::min();
  auto widen = [&](int iteration, std::int64_t start, std::int64_t duration) {
    if (iteration != first_iteration) return;
    t.first_begin_ = std::min(t.first_begin_, start);
    t.first_end_ = std::max(t.first_end_, start + duration);
  };
  for (const auto& op : run.ops) widen(op.iteration, op.start_ns, op.duration_ns);
  for (const auto& k : run.kernels)
    if (!is_orphan(k)) widen(k.iteration, k.start_ns, k.duration_ns);
  if (t.first_begin_ >= t.first_end_) {
    t.first_begin_ = t.begin_;
    t.first_end_ = t.end_;
  }
  return t;
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

}  // namespace flopscope::gui
