#include "analyzer/activations/discarded.h"

#include <algorithm>
#include <map>
#include <optional>
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

using GroupKey =
    std::tuple<std::string, std::string, std::string, std::string>;  // path, factor, op, op's module

// The run's ops and modules, looked up by id.
class RunIndex {
 public:
  explicit RunIndex(const RunData& run) : run_(run) {
    for (std::size_t i = 0; i < run.ops.size(); ++i) {
      op_index_.emplace(run.ops[i].id, i);
      if (run.ops[i].parent_op_id != kNoId) children_[run.ops[i].parent_op_id].push_back(i);
    }
    for (const auto& m : run.modules) modules_.emplace(m.id, &m);
  }
  const RunData& run() const { return run_; }
  std::optional<std::size_t> op(Id id) const {
    auto it = op_index_.find(id);
    return it == op_index_.end() ? std::nullopt : std::optional<std::size_t>(it->second);
  }
  const ModuleRecord* module(Id id) const {
    auto it = modules_.find(id);
    return it == modules_.end() ? nullptr : it->second;
  }
  std::string path_of(Id module) const {
    const ModuleRecord* m = this->module(module);
    return m ? m->path : std::string();
  }
  // A module and its ancestors, innermost first (bounded: a damaged file may hold a parent cycle).
  std::vector<Id> chain(Id module) const {
    std::vector<Id> out;
    for (Id m = module; m != kNoId && out.size() <= run_.modules.size();) {
      out.push_back(m);
      const ModuleRecord* r = this->module(m);
      m = r ? r->parent_id : kNoId;
    }
    return out;
  }
  // FLOPs and bytes of an outermost op: its own count, or those of the ops it calls (the one nesting rule).
  OpCost cost_of(std::size_t root) const {
    OpCost c;
    std::vector<std::size_t> stack{root};
    while (!stack.empty()) {
      const OpRecord& op = run_.ops[stack.back()];
      stack.pop_back();
      if (op.flops_source != FlopsSource::kNone) c.known = true;
      if (counts_toward_totals(op)) {
        c.flops += op.flops;
        c.bytes += op.bytes_read + op.bytes_written;
      }
      auto it = children_.find(op.id);
      if (it != children_.end()) stack.insert(stack.end(), it->second.begin(), it->second.end());
    }
    return c;
  }

 private:
  const RunData& run_;
  std::unordered_map<Id, std::size_t> op_index_;
  std::unordered_map<Id, std::vector<std::size_t>> children_;
  std::unordered_map<Id, const ModuleRecord*> modules_;
};

// Modules every outermost op of which is discarded (the multiplications themselves are not).
class DeadModules {
 public:
  explicit DeadModules(const RunIndex& index) {
    const RunData& run = index.run();
    std::unordered_map<Id, const DiscardedOpRecord*> dead_row;
    for (const auto& d : run.discarded) {
      if (d.op_id != d.zeroing_op_id) dead_row.emplace(d.op_id, &d);
    }
    for (const auto& op : run.ops) {
      if (op.depth != 0 || op.parent_op_id != kNoId) continue;
      auto row = dead_row.find(op.id);
      for (Id m : index.chain(op.module_id)) {
        ++outermost_[m];
        if (row != dead_row.end()) {
          ++dead_[m];
          factor_.emplace(m, row->second->zero_factor);
        }
      }
    }
  }
  bool fully_discarded(Id m) const {
    auto t = outermost_.find(m);
    auto d = dead_.find(m);
    return t != outermost_.end() && d != dead_.end() && t->second > 0 && d->second == t->second;
  }
  std::string factor(Id m) const {
    auto it = factor_.find(m);
    return it == factor_.end() ? std::string() : it->second;
  }

 private:
  std::unordered_map<Id, std::int64_t> outermost_, dead_;
  std::unordered_map<Id, std::string> factor_;
};

// The outermost fully discarded module around an op, not counting containers (the op is their child's
// work); kNoId when none.
Id removable_around(const RunIndex& index, const DeadModules& dead, Id op_module) {
  Id outer = kNoId;
  for (Id m : index.chain(op_module)) {
    if (!dead.fully_discarded(m)) break;
    const ModuleRecord* mod = index.module(m);
    if (!mod || !is_container_type(mod->type)) outer = m;
  }
  return outer;
}

// Adds one multiplication by zero (its zeroing op and the rows it discards) to its group.
void add_to_group(const RunIndex& index, const DeadModules& dead, const OpRecord& zeroing,
                  const std::vector<const DiscardedOpRecord*>& rows, std::map<GroupKey, Group>& groups) {
  const RunData& run = index.run();
  std::string zeroing_module = index.path_of(zeroing.module_id);
  std::string path = zeroing_module;
  Sums sums;
  bool complete = true;
  std::set<std::string> removable;
  for (const DiscardedOpRecord* d : rows) {
    std::optional<std::size_t> at = index.op(d->op_id);
    if (!at) continue;
    const OpRecord& op = run.ops[*at];
    path = common_ancestor(path, index.path_of(op.module_id));
    OpCost c = index.cost_of(*at);
    sums.ops += 1;
    sums.flops += c.flops;
    sums.bytes += c.bytes;
    sums.time_ns += static_cast<double>(op.duration_ns);
    complete = complete && c.known;
    if (Id outer = removable_around(index, dead, op.module_id); outer != kNoId)
      removable.insert(index.path_of(outer));
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

// One group as a candidate: costs per iteration (time as the P50 over every iteration of the run, 0 where
// the multiplication did not happen), shares of the run's.
DiscardCandidate candidate_of(const GroupKey& key, const Group& g, const RunData& run,
                              const RunSummary& summary) {
  const int iterations = std::max(1, summary.iterations);
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
  return c;
}

}  // namespace

DiscardReport find_discarded(const RunData& run, const RunSummary& summary) {
  DiscardReport report;
  if (run.discarded.empty()) return report;
  const RunIndex index(run);
  const DeadModules dead(index);
  for (const auto& m : run.modules) {
    if (dead.fully_discarded(m.id)) report.modules.push_back({m.path, dead.factor(m.id)});
  }
  // One group per multiplication by zero: its rows, keyed across iterations by where it sits and what is
  // zero.
  std::map<Id, std::vector<const DiscardedOpRecord*>> by_zeroing_op;
  for (const auto& d : run.discarded) by_zeroing_op[d.zeroing_op_id].push_back(&d);
  std::map<GroupKey, Group> groups;
  for (const auto& [zeroing_id, rows] : by_zeroing_op) {
    if (std::optional<std::size_t> z = index.op(zeroing_id))
      add_to_group(index, dead, run.ops[*z], rows, groups);
  }
  for (const auto& [key, g] : groups) report.candidates.push_back(candidate_of(key, g, run, summary));
  std::sort(report.candidates.begin(), report.candidates.end(), [](const auto& a, const auto& b) {
    if (a.flops != b.flops) return a.flops > b.flops;
    return a.path < b.path;
  });
  return report;
}

}  // namespace flopscope
