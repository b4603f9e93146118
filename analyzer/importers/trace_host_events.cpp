// TraceBuilder's trace extras: the host events no analysis reads, kept so that an export writes them back
// (db/model/trace_extras.h).
#include <algorithm>

#include "analyzer/importers/trace_builder.h"

namespace flopscope {

void TraceBuilder::drop_python_scopes_beside_paths() {
  const bool paths = std::any_of(scopes_.begin(), scopes_.end(), [](const Scope& s) { return s.is_path; });
  if (!paths) return;
  std::erase_if(scopes_, [](const Scope& s) { return s.python; });
}

void TraceBuilder::collect_trace_extras(std::int64_t origin, const std::vector<std::int32_t>& act_launch) {
  std::vector<char> launched(launches_.size(), 0);
  for (std::int32_t l : act_launch)
    if (l >= 0) launched[static_cast<std::size_t>(l)] = 1;
  auto& out = extras_.host_events;
  out.reserve(host_events_.size());
  const auto optional = [](std::int64_t v) { return v == kNone ? std::int64_t{-1} : v; };
  for (const HostEvent& h : host_events_) {
    if (thread_capture_[h.thread] != 0) continue;
    out.push_back({str(h.category), str(h.name), h.start_ns - origin, h.duration_ns, threads_[h.thread].tid,
                   optional(h.correlation), optional(h.python_id), optional(h.python_parent_id)});
  }
  // A runtime call that launched nothing (a synchronisation, an event record, a copy without a device
  // record); a graph launch is an op of its own already, and the capture trace's calls are not this run's.
  // An unnamed call (Nsight Systems' runtime rows are read without their names) has nothing to show.
  for (std::size_t i = 0; i < launches_.size(); ++i) {
    const Launch& l = launches_[i];
    if (launched[i] != 0 || l.graph || l.captured || l.name == 0 || thread_capture_[l.thread] != 0) continue;
    out.push_back({str(l.category), str(l.name), l.start_ns - origin, l.duration_ns, threads_[l.thread].tid,
                   l.correlation, -1, -1});
  }
  std::stable_sort(out.begin(), out.end(), [](const HostEventRecord& a, const HostEventRecord& b) {
    return a.start_ns < b.start_ns;
  });
  std::vector<HostEvent>().swap(host_events_);
}

}  // namespace flopscope
