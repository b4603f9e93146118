#include "analyzer/diff/op_diff.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <map>
#include <unordered_map>

#include "analyzer/diff/compare.h"
#include "analyzer/iterations.h"

namespace flopscope {
namespace {

using Agg = OpRow;
using Aggregated = OpRows;

}  // namespace

OpRows aggregate_op_rows(const RunData& run, const SidePaths& paths, bool gpu_time) {
  // The rows of a run read whole are aggregated here, the same way the writer aggregated them.
  const RunAggregates computed = run.raw_rows ? aggregate_rows(run.ops, run.kernels) : RunAggregates{};
  const RunAggregates& stored = run.raw_rows ? computed : run.aggregates;
  Aggregated out;
  const IterationIndex slot(run);
  out.iterations = slot.count();

  std::unordered_map<Id, std::string> path_of;
  for (const auto& m : run.modules) path_of.emplace(m.id, paths(m.path));
  auto module_path = [&](Id id) {
    auto it = path_of.find(id);
    return it == path_of.end() ? std::string() : it->second;
  };
  out.index.reserve(stored.ops.size());
  // Aggregates of different modules meet in one row when --map gives the modules one path.
  for (const OpAggregate& o : stored.ops) {
    std::string path = module_path(o.module_id);
    std::string key;
    key.reserve(path.size() + o.name.size() + o.signature.size() + 2);
    key.append(path).push_back('\x1f');
    key.append(o.name).push_back('\x1f');
    key.append(o.signature);
    auto [it, inserted] = out.index.try_emplace(std::move(key), out.rows.size());
    if (inserted) {
      Agg a;
      a.module_path = std::move(path);
      a.name = o.name;
      a.signature = o.signature;
      a.time = IterationSeries(static_cast<std::size_t>(out.iterations));
      out.rows.push_back(std::move(a));
    }
    Agg& a = out.rows[it->second];
    a.calls += static_cast<double>(o.calls);
    a.counted = a.counted || o.counted;
    a.flops += o.flops;
    a.bytes += o.bytes;
    a.kernels += static_cast<double>(o.kernels);
    for (const auto& [iteration, ns] : gpu_time ? o.device_ns : o.host_ns) {
      a.time.add(slot(iteration), static_cast<double>(ns));
    }
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
  // Op signatures in both runs: one time test each, at the Bonferroni level for all of them.
  int time_tests = 0;
  for (const auto& [key, ia] : aa.index) time_tests += ab.index.count(key) > 0 ? 1 : 0;
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
      d.time_diff = compare_time(d.a.time, d.b.time, options, &d.time_significant, time_tests);
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
