#include "analyzer/memory_usage.h"

#include <algorithm>
#include <map>
#include <string_view>
#include <unordered_map>

#include "analyzer/format.h"
#include "analyzer/module_order.h"

namespace flopscope {
namespace {

void count(MemoryFigures& f, const MemoryEvent& e) {
  if (e.bytes >= 0) {
    f.allocated += e.bytes;
    ++f.allocations;
  } else {
    f.freed -= e.bytes;
    ++f.frees;
  }
  f.peak = std::max(f.peak, e.total_allocated);
}

void add(MemoryFigures& to, const MemoryFigures& f) {
  to.allocated += f.allocated;
  to.freed += f.freed;
  to.allocations += f.allocations;
  to.frees += f.frees;
  to.peak = std::max(to.peak, f.peak);
}

// The innermost op containing each event on the event's thread (an index into run.ops, -1 for none). Ops
// nest by time on a thread, so a sweep in start order with a stack of open ops finds it.
std::vector<std::int64_t> innermost_ops(const RunData& run) {
  std::map<std::int64_t, std::vector<std::size_t>> ops_by_thread, events_by_thread;
  for (std::size_t i = 0; i < run.ops.size(); ++i) ops_by_thread[run.ops[i].thread].push_back(i);
  for (std::size_t i = 0; i < run.memory_events.size(); ++i) {
    events_by_thread[run.memory_events[i].thread].push_back(i);
  }
  std::vector<std::int64_t> out(run.memory_events.size(), -1);
  auto end_of = [&](std::size_t op) { return run.ops[op].start_ns + run.ops[op].duration_ns; };
  for (auto& [thread, events] : events_by_thread) {
    std::vector<std::size_t>& ops = ops_by_thread[thread];
    // Outer before inner at one start: the longer first.
    std::sort(ops.begin(), ops.end(), [&](std::size_t x, std::size_t y) {
      const OpRecord &a = run.ops[x], &b = run.ops[y];
      return a.start_ns != b.start_ns ? a.start_ns < b.start_ns : a.duration_ns > b.duration_ns;
    });
    std::stable_sort(events.begin(), events.end(), [&](std::size_t x, std::size_t y) {
      return run.memory_events[x].ts_ns < run.memory_events[y].ts_ns;
    });
    std::vector<std::size_t> open;
    std::size_t next = 0;
    for (std::size_t e : events) {
      const std::int64_t t = run.memory_events[e].ts_ns;
      for (; next < ops.size() && run.ops[ops[next]].start_ns <= t; ++next) {
        const std::int64_t start = run.ops[ops[next]].start_ns;
        while (!open.empty() && end_of(open.back()) < start) open.pop_back();
        open.push_back(ops[next]);
      }
      while (!open.empty() && end_of(open.back()) < t) open.pop_back();
      if (!open.empty()) out[e] = static_cast<std::int64_t>(open.back());
    }
  }
  return out;
}

// GPUs first by type and index, the CPU last: the figures engineers look for first.
std::vector<MemoryDevice> devices_of(const std::vector<MemoryEvent>& events) {
  std::vector<MemoryDevice> out;
  for (const auto& e : events) {
    MemoryDevice d{e.device_type, e.device_id};
    if (std::find(out.begin(), out.end(), d) == out.end()) out.push_back(d);
  }
  std::sort(out.begin(), out.end(), [](const MemoryDevice& a, const MemoryDevice& b) {
    const bool a_cpu = a.type == 0, b_cpu = b.type == 0;
    if (a_cpu != b_cpu) return b_cpu;
    return a.type != b.type ? a.type < b.type : a.id < b.id;
  });
  return out;
}

// The summary module each op's module stands for: its path's row, or the nearest ancestor with one.
std::unordered_map<Id, std::size_t> module_rows(const RunData& run, const RunSummary& s) {
  std::unordered_map<std::string_view, std::size_t> by_path;
  for (std::size_t i = 0; i < s.modules.size(); ++i) by_path.emplace(s.modules[i].path, i);
  std::unordered_map<Id, const ModuleRecord*> records;
  for (const auto& m : run.modules) records.emplace(m.id, &m);
  std::unordered_map<Id, std::size_t> out;
  for (const auto& m : run.modules) {
    const ModuleRecord* at = &m;
    for (std::size_t hops = 0; at != nullptr && hops <= run.modules.size(); ++hops) {
      if (auto it = by_path.find(at->path); it != by_path.end()) {
        out.emplace(m.id, it->second);
        break;
      }
      auto parent = records.find(at->parent_id);
      at = parent == records.end() ? nullptr : parent->second;
    }
  }
  return out;
}

void roll_up_modules(const RunSummary& s, std::size_t devices, std::vector<MemoryFigures>& self,
                     MemoryUsage& out) {
  std::vector<MemoryFigures> total = self;
  for (std::size_t i : modules_deepest_first(s)) {
    const int parent = s.modules[i].parent;
    if (parent < 0) continue;
    for (std::size_t d = 0; d < devices; ++d) {
      add(total[static_cast<std::size_t>(parent) * devices + d], total[i * devices + d]);
    }
  }
  for (std::size_t i = 0; i < s.modules.size(); ++i) {
    for (std::size_t d = 0; d < devices; ++d) {
      if (total[i * devices + d].any())
        out.modules.push_back({i, d, self[i * devices + d], total[i * devices + d]});
    }
  }
  out.module_totals = std::move(total);
  std::stable_sort(out.modules.begin(), out.modules.end(),
                   [](const MemoryModuleRow& a, const MemoryModuleRow& b) {
                     return a.total.allocated > b.total.allocated;
                   });
}

}  // namespace

std::string memory_device_name(const MemoryDevice& d) {
  switch (d.type) {
    case 0:
      return "cpu";
    case 1:
      return "cuda:" + std::to_string(d.id);
    case 6:
      return "hip:" + std::to_string(d.id);
    default:
      return "device type " + std::to_string(d.type) + ":" + std::to_string(d.id);
  }
}

const MemoryFigures* MemoryUsage::module_total(std::size_t module, std::size_t device) const {
  const std::size_t at = module * devices.size() + device;
  if (device >= devices.size() || at >= module_totals.size() || !module_totals[at].any()) return nullptr;
  return &module_totals[at];
}

MemoryUsage memory_usage(const RunData& run, const RunSummary& s) {
  MemoryUsage out;
  if (run.memory_events.empty()) return out;
  out.events = static_cast<std::int64_t>(run.memory_events.size());
  out.devices = devices_of(run.memory_events);
  const std::size_t n = out.devices.size();
  out.device_totals.resize(n);
  out.unattributed.resize(n);
  const std::vector<std::int64_t> innermost = innermost_ops(run);
  std::unordered_map<Id, std::size_t> op_index;
  for (std::size_t i = 0; i < run.ops.size(); ++i) op_index.emplace(run.ops[i].id, i);
  const std::unordered_map<Id, std::size_t> module_row = module_rows(run, s);
  // Per (op, device): self figures, and totals reached by walking each event up its op's parents.
  std::map<std::pair<std::size_t, std::size_t>, std::pair<MemoryFigures, MemoryFigures>> per_op;
  std::vector<MemoryFigures> module_self(s.modules.size() * n);
  for (std::size_t e = 0; e < run.memory_events.size(); ++e) {
    const MemoryEvent& ev = run.memory_events[e];
    const auto d = static_cast<std::size_t>(
        std::find(out.devices.begin(), out.devices.end(), MemoryDevice{ev.device_type, ev.device_id}) -
        out.devices.begin());
    count(out.device_totals[d], ev);
    if (innermost[e] < 0) {
      count(out.unattributed[d], ev);
      continue;
    }
    auto op = static_cast<std::size_t>(innermost[e]);
    count(per_op[{op, d}].first, ev);
    if (auto m = module_row.find(run.ops[op].module_id); m != module_row.end() && !s.modules.empty()) {
      count(module_self[m->second * n + d], ev);
    } else if (!s.modules.empty()) {
      count(module_self[d], ev);  // an op outside every module: the root's
    }
    for (std::size_t hops = 0; hops <= run.ops.size(); ++hops) {
      count(per_op[{op, d}].second, ev);
      auto parent = op_index.find(run.ops[op].parent_op_id);
      if (parent == op_index.end()) break;
      op = parent->second;
    }
  }
  std::map<std::pair<std::string_view, std::size_t>, MemoryOpRow> by_name;
  for (const auto& [key, figures] : per_op) {
    MemoryOpRow& row = by_name[{run.ops[key.first].name, key.second}];
    row.name = run.ops[key.first].name;
    row.device = key.second;
    ++row.ops;
    add(row.self, figures.first);
    add(row.total, figures.second);
  }
  for (auto& [key, row] : by_name) out.ops.push_back(std::move(row));
  std::stable_sort(out.ops.begin(), out.ops.end(), [](const MemoryOpRow& a, const MemoryOpRow& b) {
    return a.total.allocated > b.total.allocated;
  });
  roll_up_modules(s, n, module_self, out);
  return out;
}

std::string module_allocated_text(const MemoryUsage& m, std::size_t module) {
  std::string out;
  for (std::size_t d = 0; d < m.devices.size(); ++d) {
    const MemoryFigures* f = m.module_total(module, d);
    if (f == nullptr || f->allocated == 0) continue;
    if (!out.empty()) out += ", ";
    out += bytes_text(static_cast<double>(f->allocated));
    if (m.devices.size() > 1) out += " " + memory_device_name(m.devices[d]);
  }
  return out.empty() ? "-" : out;
}

}  // namespace flopscope
