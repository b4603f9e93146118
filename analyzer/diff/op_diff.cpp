#include "analyzer/diff/op_diff.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <map>
#include <unordered_map>

#include "analyzer/diff/compare.h"
#include "analyzer/iterations.h"
#include "analyzer/op_groups.h"

namespace flopscope {
namespace {

using Agg = OpRow;
using Aggregated = OpRows;

std::uint64_t mix(std::uint64_t h, std::uint64_t v) { return (h ^ v) * 0x100000001b3ull + (h >> 29); }

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

}  // namespace

OpRows aggregate_op_rows(const RunData& run, const SidePaths& paths, bool gpu_time) {
  Aggregated out;
  const IterationIndex slot(run);
  out.iterations = slot.count();

  std::unordered_map<Id, std::string> path_of;
  for (const auto& m : run.modules) path_of.emplace(m.id, paths(m.path));
  auto module_path = [&](Id id) {
    auto it = path_of.find(id);
    return it == path_of.end() ? std::string() : it->second;
  };
  auto row_for = [&](std::string path, std::string name, std::string sig) -> std::size_t {
    std::string key;
    key.reserve(path.size() + name.size() + sig.size() + 2);
    key.append(path).push_back('\x1f');
    key.append(name).push_back('\x1f');
    key.append(sig);
    auto [it, inserted] = out.index.try_emplace(std::move(key), out.rows.size());
    if (inserted) {
      Agg a;
      a.module_path = std::move(path);
      a.name = std::move(name);
      a.signature = std::move(sig);
      a.time.assign(static_cast<std::size_t>(out.iterations), 0.0);
      out.rows.push_back(std::move(a));
    }
    return it->second;
  };

  out.index.reserve(1024);
  // Building the text key of every op is the slow part; ops with an identical (module, name, args) seen
  // before reuse its row through a hash of those fields, checked for equality against an exemplar.
  struct Variant {
    const OpRecord* exemplar;
    std::size_t row;
  };
  std::unordered_map<std::uint64_t, std::vector<Variant>> variants;
  std::unordered_map<Id, std::size_t> op_row;
  op_row.reserve(run.ops.size());
  for (const auto& op : run.ops) {
    std::uint64_t h = identity_hash(op);
    auto& list = variants[h];
    std::size_t r = SIZE_MAX;
    for (const auto& v : list) {
      if (v.exemplar->module_id == op.module_id && v.exemplar->name == op.name && v.exemplar->args == op.args) {
        r = v.row;
        break;
      }
    }
    if (r == SIZE_MAX) {
      r = row_for(module_path(op.module_id), op.name, signature_of(op.args));
      list.push_back({&op, r});
    }
    op_row.emplace(op.id, r);
    Agg& a = out.rows[r];
    a.calls += 1;
    if (op.flops_source != FlopsSource::kNone) a.counted = true;
    if (counts_toward_totals(op)) {
      a.flops += op.flops;
      a.bytes += op.bytes_read + op.bytes_written;
    }
    if (!gpu_time) a.time[slot(op.iteration)] += static_cast<double>(op.duration_ns);
  }
  for (const auto& k : run.kernels) {
    std::size_t r = 0;
    auto it = k.op_id == kNoId ? op_row.end() : op_row.find(k.op_id);
    if (it != op_row.end()) {
      r = it->second;
    } else {
      // Kernels no op launched (CUPTI-only runs, orphans) are grouped by name under their module.
      r = row_for(module_path(k.module_id), std::string("kernel ") + k.name, "");
    }
    Agg& a = out.rows[r];
    a.kernels += 1;
    if (gpu_time && k.iteration >= 0) a.time[slot(k.iteration)] += static_cast<double>(k.duration_ns);
  }
  return out;
}

namespace {

SideCost side(const Agg& a, int iterations, double total_time, double total_flops) {
  SideCost s;
  s.present = true;
  double per = 1.0 / iterations;
  s.ops = a.calls * per;
  s.kernels = a.kernels * per;
  s.flops = a.flops * per;
  s.bytes = a.bytes * per;
  s.flops_known = a.counted;
  s.time = latency_stats(a.time);
  s.share_time = total_time > 0 ? s.time.p50 / total_time : 0;
  s.share_flops = total_flops > 0 ? s.flops / total_flops : 0;
  return s;
}

int rank(DiffStatus s) { return static_cast<int>(s); }

}  // namespace

std::vector<OpDiff> diff_ops(const RunData& a, const SidePaths& paths_a, const RunData& b, const SidePaths& paths_b,
                             const DiffOptions& options, bool gpu_time, const RunTotals& totals_a,
                             const RunTotals& totals_b) {
  Aggregated aa = aggregate_op_rows(a, paths_a, gpu_time);
  Aggregated ab = aggregate_op_rows(b, paths_b, gpu_time);
  const double ta = totals_a.time.p50, fa = totals_a.flops, tb = totals_b.time.p50, fb = totals_b.flops;
  std::vector<OpDiff> out;
  out.reserve(aa.rows.size() + ab.rows.size());
  for (const auto& [key, ia] : aa.index) {
    const Agg& ra = aa.rows[ia];
    OpDiff d;
    d.module_path = ra.module_path;
    d.name = ra.name;
    d.signature = ra.signature;
    d.a = side(ra, aa.iterations, ta, fa);
    auto it = ab.index.find(key);
    if (it == ab.index.end()) {
      d.status = DiffStatus::kVanished;
    } else {
      d.b = side(ab.rows[it->second], ab.iterations, tb, fb);
      d.time_diff = compare_time(d.a.time, d.b.time, options, &d.time_significant);
      d.time_status = time_status_of(d.a.time, d.b.time, d.time_diff, d.time_significant);
      d.status = costs_differ(d.a, d.b, options) ? DiffStatus::kChanged : DiffStatus::kUnchanged;
    }
    out.push_back(std::move(d));
  }
  for (const auto& [key, ib] : ab.index) {
    if (aa.index.count(key) != 0) continue;
    const Agg& rb = ab.rows[ib];
    OpDiff d;
    d.module_path = rb.module_path;
    d.name = rb.name;
    d.signature = rb.signature;
    d.b = side(rb, ab.iterations, tb, fb);
    d.status = DiffStatus::kNew;
    out.push_back(std::move(d));
  }
  std::sort(out.begin(), out.end(), [](const OpDiff& x, const OpDiff& y) {
    if (rank(x.status) != rank(y.status)) return rank(x.status) < rank(y.status);
    double dx = std::fabs(x.b.time.p50 - x.a.time.p50), dy = std::fabs(y.b.time.p50 - y.a.time.p50);
    if (dx != dy) return dx > dy;
    return std::tie(x.module_path, x.name, x.signature) < std::tie(y.module_path, y.name, y.signature);
  });
  return out;
}

}  // namespace flopscope
