#include "analyzer/diff/interleaved_rounds.h"

#include <algorithm>
#include <limits>
#include <set>
#include <unordered_map>

namespace flopscope {

namespace {

// The round's modules merged into `into`'s by path (the same model gives the same paths, with ids of its
// own): the round's module id -> `into`'s.
std::unordered_map<Id, Id> merge_modules(RunData& into, const RunData& round) {
  std::unordered_map<std::string, Id> by_path;
  Id next_module = 0;
  for (const auto& m : into.modules) {
    by_path.emplace(m.path, m.id);
    next_module = std::max(next_module, m.id + 1);
  }
  std::unordered_map<Id, Id> module_id;
  for (const auto& m : round.modules) {  // parents come before children in module order
    auto it = by_path.find(m.path);
    if (it != by_path.end()) {
      module_id[m.id] = it->second;
      continue;
    }
    ModuleRecord added = m;
    added.id = next_module++;
    auto parent = module_id.find(m.parent_id);
    added.parent_id = parent == module_id.end() ? kNoId : parent->second;
    module_id[m.id] = added.id;
    by_path.emplace(added.path, added.id);
    into.modules.push_back(std::move(added));
  }
  return module_id;
}

// Where the round's rows go: after every iteration, time, sequence number and id `into` holds.
struct Offsets {
  int iteration = 0;
  std::int64_t time = 0, sequence = 0;
  Id op = 0, kernel = 0;
  int round_first = std::numeric_limits<int>::max();  // the round's first recorded iteration (warmup: > 0)
  int iteration_of(int i) const { return i - round_first + iteration; }
  Id op_of(Id id) const { return id == kNoId ? kNoId : id + op; }
};

Offsets offsets(const RunData& into, const RunData& round) {
  Offsets o;
  for (const auto& op : into.ops) {
    o.iteration = std::max(o.iteration, op.iteration + 1);
    o.time = std::max(o.time, op.start_ns + op.duration_ns);
    o.sequence = std::max(o.sequence, op.sequence + 1);
    o.op = std::max(o.op, op.id + 1);
  }
  for (const auto& k : into.kernels) {
    o.iteration = std::max(o.iteration, k.iteration + 1);
    o.time = std::max(o.time, k.start_ns + k.duration_ns);
    o.kernel = std::max(o.kernel, k.id + 1);
  }
  for (const auto& op : round.ops) o.round_first = std::min(o.round_first, op.iteration);
  for (const auto& k : round.kernels) o.round_first = std::min(o.round_first, k.iteration);
  return o;
}

// Each round is one sample of the time between runs (between_runs.h): its iterations get a process number
// of their own, after every process `into` holds (the first round's iterations are process 0).
void number_process(RunData& into, const RunData& round, const Offsets& o) {
  if (into.iteration_processes.empty()) {
    std::set<int> present;
    for (const auto& op : into.ops) present.insert(op.iteration);
    for (const auto& k : into.kernels) {
      if (k.iteration >= 0) present.insert(k.iteration);
    }
    for (int i : present) into.iteration_processes.push_back({i, 0});
  }
  int process = 0;
  for (const auto& p : into.iteration_processes) process = std::max(process, p.process + 1);
  std::set<int> added;
  for (const auto& op : round.ops) added.insert(o.iteration_of(op.iteration));
  for (const auto& k : round.kernels) {
    if (k.iteration >= 0) added.insert(o.iteration_of(k.iteration));
  }
  for (int i : added) into.iteration_processes.push_back({i, process});
}

// Data-quality rows of one code and severity are counted together.
void merge_quality(RunData& into, std::vector<QualityIssue> quality) {
  for (auto& q : quality) {
    auto same = std::find_if(into.quality.begin(), into.quality.end(), [&](const QualityIssue& x) {
      return x.code == q.code && x.severity == q.severity;
    });
    if (same == into.quality.end()) {
      into.quality.push_back(std::move(q));
    } else {
      same->count += q.count;
    }
  }
}

}  // namespace

void append_round(RunData& into, RunData round) {
  const std::unordered_map<Id, Id> module_id = merge_modules(into, round);
  auto map_module = [&](Id id) {
    auto it = module_id.find(id);
    return it == module_id.end() ? kNoId : it->second;
  };
  const Offsets o = offsets(into, round);
  number_process(into, round, o);
  for (auto& op : round.ops) {
    op.id = o.op_of(op.id);
    op.parent_op_id = o.op_of(op.parent_op_id);
    op.module_id = map_module(op.module_id);
    op.iteration = o.iteration_of(op.iteration);
    op.start_ns += o.time;
    op.sequence += o.sequence;
    into.ops.push_back(std::move(op));
  }
  for (auto& k : round.kernels) {
    k.id += o.kernel;
    k.op_id = o.op_of(k.op_id);
    k.module_id = map_module(k.module_id);
    k.iteration = o.iteration_of(k.iteration);
    k.start_ns += o.time;
    into.kernels.push_back(std::move(k));
  }
  for (auto& a : round.activations) {
    a.module_id = map_module(a.module_id);
    a.iteration = o.iteration_of(a.iteration);
    into.activations.push_back(std::move(a));
  }
  for (auto& d : round.discarded) {
    d.op_id = o.op_of(d.op_id);
    d.zeroing_op_id = o.op_of(d.zeroing_op_id);
    into.discarded.push_back(std::move(d));
  }
  merge_quality(into, std::move(round.quality));
  into.info.iterations += round.info.iterations;
}

}  // namespace flopscope
