#include "analyzer/activations/discarded.h"

#include <algorithm>
#include <map>
#include <set>
#include <tuple>
#include <unordered_map>

#include "analyzer/module_types.h"
#include "db/model/module_path.h"

namespace flopscope {
namespace {

// The innermost module path that contains both (a prefix of dotted components).
std::string common_ancestor(const std::string& a, const std::string& b) {
  int depth = 0;
  while (depth < path_depth(a) && depth < path_depth(b) &&
         path_prefix(a, depth + 1) == path_prefix(b, depth + 1))
    ++depth;
  return std::string(path_prefix(a, depth));
}

struct OpCost {
  double flops = 0;
  double bytes = 0;
  bool known = false;  // some op of the subtree has a FLOPs count (or a formula)
};

// Per iteration sums of one candidate.
struct Sums {
  double ops = 0;
  double flops = 0;
  double bytes = 0;
  double time_ns = 0;
};

struct Group {
  std::map<int, Sums> by_iteration;
  bool flops_complete = true;
  std::set<std::string> discarded_modules;
};

}  // namespace

DiscardReport find_discarded(const RunData& run, const RunSummary& summary) {
  DiscardReport report;
  if (run.discarded.empty()) return report;

  std::unordered_map<Id, std::size_t> op_index;
  std::unordered_map<Id, std::vector<std::size_t>> children;
  for (std::size_t i = 0; i < run.ops.size(); ++i) {
    op_index.emplace(run.ops[i].id, i);
    if (run.ops[i].parent_op_id != kNoId) children[run.ops[i].parent_op_id].push_back(i);
  }
  std::unordered_map<Id, const ModuleRecord*> modules;
  for (const auto& m : run.modules) modules.emplace(m.id, &m);
  auto path_of = [&](Id module) {
    auto it = modules.find(module);
    return it == modules.end() ? std::string() : it->second->path;
  };
  // A module and its ancestors, innermost first (bounded: a damaged file may hold a parent cycle).
  auto chain = [&](Id module) {
    std::vector<Id> out;
    for (Id m = module; m != kNoId && out.size() <= run.modules.size();) {
      out.push_back(m);
      auto it = modules.find(m);
      m = it == modules.end() ? kNoId : it->second->parent_id;
    }
    return out;
  };
  // FLOPs and bytes of an outermost op: its own count, or those of the ops it calls (the one nesting rule).
  auto cost_of = [&](std::size_t root) {
    OpCost c;
    std::vector<std::size_t> stack{root};
    while (!stack.empty()) {
      const OpRecord& op = run.ops[stack.back()];
      stack.pop_back();
      if (op.flops_source != FlopsSource::kNone) c.known = true;
      if (counts_toward_totals(op)) {
        c.flops += op.flops;
        c.bytes += op.bytes_read + op.bytes_written;
      }
      auto it = children.find(op.id);
      if (it != children.end()) stack.insert(stack.end(), it->second.begin(), it->second.end());
    }
    return c;
  };

  // Modules every outermost op of which is discarded (the multiplications themselves are not).
  std::unordered_map<Id, std::int64_t> outermost, dead;
  std::unordered_map<Id, std::string> dead_factor;
  std::unordered_map<Id, const DiscardedOpRecord*> dead_row;
  for (const auto& d : run.discarded) {
    if (d.op_id != d.zeroing_op_id) dead_row.emplace(d.op_id, &d);
  }
  for (const auto& op : run.ops) {
    if (op.depth != 0 || op.parent_op_id != kNoId) continue;
    auto row = dead_row.find(op.id);
    for (Id m : chain(op.module_id)) {
      ++outermost[m];
      if (row != dead_row.end()) {
        ++dead[m];
        dead_factor.emplace(m, row->second->zero_factor);
      }
    }
  }
  auto fully_discarded = [&](Id m) {
    auto t = outermost.find(m);
    auto d = dead.find(m);
    return t != outermost.end() && d != dead.end() && t->second > 0 && d->second == t->second;
  };
  for (const auto& m : run.modules) {
    if (fully_discarded(m.id)) report.modules.push_back({m.path, dead_factor[m.id]});
  }

  // One group per multiplication by zero: its rows, keyed across iterations by where it sits and what is
  // zero.
  std::map<Id, std::vector<const DiscardedOpRecord*>> by_zeroing_op;
  for (const auto& d : run.discarded) by_zeroing_op[d.zeroing_op_id].push_back(&d);
  using Key =
      std::tuple<std::string, std::string, std::string, std::string>;  // path, factor, op, op's module
  std::map<Key, Group> groups;
  for (const auto& [zeroing_id, rows] : by_zeroing_op) {
    auto z = op_index.find(zeroing_id);
    if (z == op_index.end()) continue;
    const OpRecord& zeroing = run.ops[z->second];
    std::string zeroing_module = path_of(zeroing.module_id);
    std::string path = zeroing_module;
    Sums sums;
    bool complete = true;
    std::set<std::string> removable;
    for (const DiscardedOpRecord* d : rows) {
      auto it = op_index.find(d->op_id);
      if (it == op_index.end()) continue;
      const OpRecord& op = run.ops[it->second];
      path = common_ancestor(path, path_of(op.module_id));
      OpCost c = cost_of(it->second);
      sums.ops += 1;
      sums.flops += c.flops;
      sums.bytes += c.bytes;
      sums.time_ns += static_cast<double>(op.duration_ns);
      complete = complete && c.known;
      // The outermost fully discarded module around this op, if any, not counting containers (the op is
      // their child's work).
      Id outer = kNoId;
      for (Id m : chain(op.module_id)) {
        if (!fully_discarded(m)) break;
        auto mod = modules.find(m);
        if (mod == modules.end() || !is_container_type(mod->second->type)) outer = m;
      }
      if (outer != kNoId) removable.insert(path_of(outer));
    }
    Group& g = groups[{path, rows.front()->zero_factor, zeroing.name, zeroing_module}];
    Sums& s = g.by_iteration[zeroing.iteration];
    s.ops += sums.ops;
    s.flops += sums.flops;
    s.bytes += sums.bytes;
    s.time_ns += sums.time_ns;
    g.flops_complete = g.flops_complete && complete;
    g.discarded_modules.insert(removable.begin(), removable.end());
  }

  const int iterations = std::max(1, summary.iterations);
  for (auto& [key, g] : groups) {
    DiscardCandidate c;
    std::tie(c.path, c.zero_factor, c.zeroing_op, c.zeroing_module) = key;
    int idx = summary.find(c.path);
    if (idx >= 0) c.type = summary.modules[static_cast<std::size_t>(idx)].type;
    c.run_iterations = iterations;
    c.iterations = static_cast<int>(g.by_iteration.size());
    std::vector<double> times(static_cast<std::size_t>(iterations), 0.0);
    std::size_t slot = 0;
    for (const auto& [iteration, s] : g.by_iteration) {
      c.ops += s.ops;
      c.flops += s.flops;
      c.bytes += s.bytes;
      if (slot < times.size()) times[slot++] = s.time_ns;
    }
    c.ops /= iterations;
    c.flops /= iterations;
    c.bytes /= iterations;
    std::sort(times.begin(), times.end());
    c.time_p50_ns = percentile_sorted(times, 50);
    c.flops_complete = g.flops_complete;
    c.share_flops = summary.total.flops > 0 ? c.flops / summary.total.flops : 0;
    c.share_time = summary.iteration_time.p50 > 0 ? c.time_p50_ns / summary.iteration_time.p50 : 0;
    for (const auto& m : run.modules) {
      if (g.discarded_modules.count(m.path) != 0) c.discarded_modules.push_back(m.path);
    }
    report.candidates.push_back(std::move(c));
  }
  std::sort(report.candidates.begin(), report.candidates.end(), [](const auto& a, const auto& b) {
    if (a.flops != b.flops) return a.flops > b.flops;
    return a.path < b.path;
  });
  return report;
}

}  // namespace flopscope
