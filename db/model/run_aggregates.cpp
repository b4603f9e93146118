#include "db/model/run_aggregates.h"

#include <algorithm>
#include <unordered_map>

#include "db/model/op_signature.h"

namespace flopscope {
namespace {

std::uint64_t mix(std::uint64_t h, std::uint64_t v) {
  return (h ^ v) * 0x100000001b3ull + (h >> 29);
}

// Hash of what makes two ops the same row: module, name and arguments. The signature text would do, but
// building it for each of a million ops is the slow part; it is built once per distinct row.
std::uint64_t identity_hash(const OpRecord& op) {
  std::hash<std::string> hs;
  std::uint64_t h = mix(0xcbf29ce484222325ull, static_cast<std::uint64_t>(op.module_id));
  h = mix(h, hs(op.name));
  for (const auto& a : op.args) {
    h = mix(h, a.is_tensor ? 1 : 2);
    h = mix(h, hs(a.dtype));
    for (auto d : a.shape) h = mix(h, static_cast<std::uint64_t>(d));
    h = mix(h, hs(a.value));
  }
  return h;
}

// Rows arrive mostly in iteration order: add to the last entry, or append; normalise() sorts later.
void add_time(IterationTimes& t, int iteration, std::int64_t ns) {
  if (!t.empty() && t.back().first == iteration) {
    t.back().second += ns;
  } else {
    t.emplace_back(iteration, ns);
  }
}

void normalise(IterationTimes& t) {
  std::stable_sort(t.begin(), t.end(), [](const auto& x, const auto& y) { return x.first < y.first; });
  std::size_t out = 0;
  for (std::size_t i = 0; i < t.size(); ++i) {
    if (out > 0 && t[out - 1].first == t[i].first) {
      t[out - 1].second += t[i].second;
    } else {
      t[out++] = t[i];
    }
  }
  t.resize(out);
  std::erase_if(t, [](const auto& e) { return e.second == 0; });
}

constexpr Id kMaxDenseOpId = Id{1} << 27;  // op ids below this index a vector; others a hash map

}  // namespace

struct AggregateBuilder::State {
  struct Variant {
    Id module_id;
    std::string name;
    std::vector<OpArg> args;
    std::size_t row;
  };
  RunAggregates out;
  std::vector<int> iterations;  // unsorted, repeats collapsed when adjacent
  std::unordered_map<Id, std::size_t> module_row;
  std::unordered_map<std::uint64_t, std::vector<Variant>> variants;
  std::vector<std::int32_t> dense_op_row;  // op id -> row + 1 (0: not seen)
  std::unordered_map<Id, std::size_t> sparse_op_row;
  std::vector<KernelRecord> waiting;                         // kernels whose op was not seen yet
  std::unordered_map<std::string, std::size_t> kernel_rows;  // "module id \x1f name" -> row

  void note_iteration(int it) {
    if (iterations.empty() || iterations.back() != it) iterations.push_back(it);
  }

  ModuleAggregate& module(Id id) {
    auto [it, inserted] = module_row.try_emplace(id, out.modules.size());
    if (inserted) out.modules.push_back(ModuleAggregate{.module_id = id});
    return out.modules[it->second];
  }

  std::size_t row_of(const OpRecord& op) {
    auto& list = variants[identity_hash(op)];
    for (const Variant& v : list) {
      if (v.module_id == op.module_id && v.name == op.name && v.args == op.args) return v.row;
    }
    const std::size_t row = out.ops.size();
    out.ops.push_back(
        OpAggregate{.module_id = op.module_id, .name = op.name, .signature = signature_of(op.args)});
    list.push_back({op.module_id, op.name, op.args, row});
    return row;
  }

  void remember(Id op_id, std::size_t row) {
    if (op_id >= 0 && op_id < kMaxDenseOpId) {
      const auto at = static_cast<std::size_t>(op_id);
      if (at >= dense_op_row.size()) dense_op_row.resize(std::max(at + 1, dense_op_row.size() * 2), 0);
      dense_op_row[at] = static_cast<std::int32_t>(row + 1);
    } else {
      sparse_op_row[op_id] = row;
    }
  }

  // The row of a seen op, or SIZE_MAX.
  std::size_t launched_by(Id op_id) const {
    if (op_id >= 0 && op_id < kMaxDenseOpId) {
      const auto at = static_cast<std::size_t>(op_id);
      return at < dense_op_row.size() && dense_op_row[at] > 0 ? static_cast<std::size_t>(dense_op_row[at] - 1)
                                                              : SIZE_MAX;
    }
    auto it = sparse_op_row.find(op_id);
    return it == sparse_op_row.end() ? SIZE_MAX : it->second;
  }

  void add_op(const OpRecord& op) {
    note_iteration(op.iteration);
    ModuleAggregate& m = module(op.module_id);
    const std::size_t r = row_of(op);
    OpAggregate& a = out.ops[r];
    remember(op.id, r);
    m.ops += 1;
    a.calls += 1;
    if (op.flops_source != FlopsSource::kNone) {
      m.ops_with_formula += 1;
      a.counted = true;
    }
    if (counts_toward_totals(op)) {
      m.flops += op.flops;
      m.macs += op.macs;
      m.bytes_read += op.bytes_read;
      m.bytes_written += op.bytes_written;
      a.flops += op.flops;
      a.bytes += op.bytes_read + op.bytes_written;
    } else if (op.flops_source == FlopsSource::kNested) {
      a.nested_flops += op.flops;
    }
    if (op.parent_op_id == kNoId) add_time(m.host_ns, op.iteration, op.duration_ns);
    add_time(a.host_ns, op.iteration, op.duration_ns);
  }

  void add_kernel(const KernelRecord& k, std::size_t r) {
    ModuleAggregate& m = module(k.module_id);
    if (r == SIZE_MAX) {
      // No known op launched it: grouped by name under its module.
      std::string key = std::to_string(k.module_id) + '\x1f' + k.name;
      auto [it, inserted] = kernel_rows.try_emplace(std::move(key), out.ops.size());
      if (inserted) out.ops.push_back(OpAggregate{.module_id = k.module_id, .name = "kernel " + k.name});
      r = it->second;
    }
    OpAggregate& a = out.ops[r];
    a.kernels += 1;
    if (k.iteration < 0) {
      m.orphan_kernels += 1;
      m.orphan_ns += k.duration_ns;
      return;
    }
    note_iteration(k.iteration);
    m.kernels += 1;
    m.measured.add(k);
    add_time(m.device_ns, k.iteration, k.duration_ns);
    add_time(a.device_ns, k.iteration, k.duration_ns);
  }
};

AggregateBuilder::AggregateBuilder() : s_(std::make_unique<State>()) {}
AggregateBuilder::~AggregateBuilder() = default;

void AggregateBuilder::add_ops(std::span<const OpRecord> ops) {
  for (const OpRecord& op : ops) s_->add_op(op);
}

void AggregateBuilder::add_kernels(std::span<const KernelRecord> kernels) {
  for (const KernelRecord& k : kernels) {
    const std::size_t r = k.op_id == kNoId ? SIZE_MAX : s_->launched_by(k.op_id);
    if (r == SIZE_MAX && k.op_id != kNoId) {
      s_->waiting.push_back(k);  // its op may come later
    } else {
      s_->add_kernel(k, r);
    }
  }
}

RunAggregates AggregateBuilder::finish() {
  State& s = *s_;
  for (const KernelRecord& k : s.waiting) s.add_kernel(k, s.launched_by(k.op_id));
  s.waiting.clear();
  RunAggregates out = std::move(s.out);
  out.present = true;
  std::sort(s.iterations.begin(), s.iterations.end());
  s.iterations.erase(std::unique(s.iterations.begin(), s.iterations.end()), s.iterations.end());
  out.iterations = std::move(s.iterations);
  for (auto& m : out.modules) {
    normalise(m.host_ns);
    normalise(m.device_ns);
  }
  for (auto& o : out.ops) {
    normalise(o.host_ns);
    normalise(o.device_ns);
  }
  s_ = std::make_unique<State>();
  return out;
}

RunAggregates aggregate_rows(std::span<const OpRecord> ops, std::span<const KernelRecord> kernels) {
  AggregateBuilder b;
  b.add_ops(ops);
  b.add_kernels(kernels);
  return b.finish();
}

}  // namespace flopscope
