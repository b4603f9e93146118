#include "analyzer/diff/interleaved_rounds.h"

#include <algorithm>
#include <limits>
#include <set>
#include <unordered_map>

namespace flopscope {

void append_round(RunData& into, RunData round) {
  // Modules by path: the same model gives the same paths, with ids of its own.
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
  auto map_module = [&](Id id) {
    auto it = module_id.find(id);
    return it == module_id.end() ? kNoId : it->second;
  };

  int iteration_offset = 0;
  std::int64_t time_offset = 0, sequence_offset = 0;
  Id op_offset = 0, kernel_offset = 0;
  for (const auto& op : into.ops) {
    iteration_offset = std::max(iteration_offset, op.iteration + 1);
    time_offset = std::max(time_offset, op.start_ns + op.duration_ns);
    sequence_offset = std::max(sequence_offset, op.sequence + 1);
    op_offset = std::max(op_offset, op.id + 1);
  }
  for (const auto& k : into.kernels) {
    iteration_offset = std::max(iteration_offset, k.iteration + 1);
    time_offset = std::max(time_offset, k.start_ns + k.duration_ns);
    kernel_offset = std::max(kernel_offset, k.id + 1);
  }
  // Warmup iterations are not recorded; the first recorded iteration of a round may be above 0.
  int round_first = std::numeric_limits<int>::max();
  for (const auto& op : round.ops) round_first = std::min(round_first, op.iteration);
  for (const auto& k : round.kernels) round_first = std::min(round_first, k.iteration);
  auto map_iteration = [&](int i) { return i - round_first + iteration_offset; };
  auto map_op = [&](Id id) { return id == kNoId ? kNoId : id + op_offset; };

  // Each round is one sample of the time between runs (between_runs.h): its iterations get a process
  // number of their own, after every process `into` holds (the first round's iterations are process 0).
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
  for (const auto& op : round.ops) added.insert(map_iteration(op.iteration));
  for (const auto& k : round.kernels) {
    if (k.iteration >= 0) added.insert(map_iteration(k.iteration));
  }
  for (int i : added) into.iteration_processes.push_back({i, process});

  for (auto& op : round.ops) {
    op.id = map_op(op.id);
    op.parent_op_id = map_op(op.parent_op_id);
    op.module_id = map_module(op.module_id);
    op.iteration = map_iteration(op.iteration);
    op.start_ns += time_offset;
    op.sequence += sequence_offset;
    into.ops.push_back(std::move(op));
  }
  for (auto& k : round.kernels) {
    k.id += kernel_offset;
    k.op_id = map_op(k.op_id);
    k.module_id = map_module(k.module_id);
    k.iteration = map_iteration(k.iteration);
    k.start_ns += time_offset;
    into.kernels.push_back(std::move(k));
  }
  for (auto& a : round.activations) {
    a.module_id = map_module(a.module_id);
    a.iteration = map_iteration(a.iteration);
    into.activations.push_back(std::move(a));
  }
  for (auto& d : round.discarded) {
    d.op_id = map_op(d.op_id);
    d.zeroing_op_id = map_op(d.zeroing_op_id);
    into.discarded.push_back(std::move(d));
  }
  for (auto& q : round.quality) {
    auto same = std::find_if(into.quality.begin(), into.quality.end(), [&](const QualityIssue& x) {
      return x.code == q.code && x.severity == q.severity;
    });
    if (same == into.quality.end()) {
      into.quality.push_back(std::move(q));
    } else {
      same->count += q.count;
    }
  }
  into.info.iterations += round.info.iterations;
}

}  // namespace flopscope
