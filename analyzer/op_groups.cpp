#include "analyzer/op_groups.h"

#include <unordered_map>

namespace flopscope {

std::vector<double> kernel_time_per_op(const RunData& run) {
  std::unordered_map<Id, std::size_t> op_at;
  op_at.reserve(run.ops.size());
  for (std::size_t i = 0; i < run.ops.size(); ++i) op_at[run.ops[i].id] = i;
  std::vector<double> device(run.ops.size(), 0.0);
  for (const auto& k : run.kernels) {
    if (k.iteration < 0 || k.op_id == kNoId) continue;
    auto it = op_at.find(k.op_id);
    for (int guard = 0; guard < 1000 && it != op_at.end(); ++guard) {
      device[it->second] += static_cast<double>(k.duration_ns);
      Id parent = run.ops[it->second].parent_op_id;
      it = parent == kNoId ? op_at.end() : op_at.find(parent);
    }
  }
  return device;
}

std::vector<OpGroup> group_ops(const RunData& run, int iterations, const std::optional<DevicePeak>& peak) {
  std::unordered_map<Id, const std::string*> path_of;
  for (const auto& m : run.modules) path_of[m.id] = &m.path;
  static const std::string kRoot;
  const std::vector<double> device = kernel_time_per_op(run);
  std::vector<OpGroup> groups;
  std::unordered_map<std::string, std::size_t> index;
  for (std::size_t i = 0; i < run.ops.size(); ++i) {
    const auto& op = run.ops[i];
    auto p = path_of.find(op.module_id);
    const std::string& path = p == path_of.end() ? kRoot : *p->second;
    std::string sig = signature_of(op.args);
    std::string key = path + '\x1f' + op.name + '\x1f' + sig + '\x1f' + to_string(op.flops_source);
    auto [it, inserted] = index.emplace(key, groups.size());
    if (inserted) {
      OpGroup g;
      g.module_path = path;
      g.name = op.name;
      g.signature = std::move(sig);
      g.args = op.args;
      g.source = op.flops_source;
      g.depth = op.depth;
      g.flops = op.flops;
      g.macs = op.macs;
      g.bytes_read = op.bytes_read;
      g.bytes_written = op.bytes_written;
      g.note = op.flops_note;
      groups.push_back(std::move(g));
    }
    OpGroup& g = groups[it->second];
    g.calls += 1;
    g.time_ns += static_cast<double>(op.duration_ns);
    g.device_time_ns += device[i];
  }
  const double iters = iterations > 0 ? iterations : 1;
  for (auto& g : groups) {
    g.time_ns /= g.calls;
    g.device_time_ns /= g.calls;
    g.calls /= iters;
    g.rates = device_rates(g.flops, g.bytes_read + g.bytes_written, g.device_time_ns, peak);
  }
  return groups;
}

}  // namespace flopscope
