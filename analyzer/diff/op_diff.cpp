#include "analyzer/diff/op_diff.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <future>
#include <map>
#include <tuple>
#include <unordered_map>
#include <utility>
#include <vector>

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
  path_of.reserve(run.modules.size());
  for (const auto& m : run.modules) path_of.emplace(m.id, paths(m.path));
  static const std::string kNoPath;
  auto module_path = [&](Id id) -> const std::string& {
    auto it = path_of.find(id);
    return it == path_of.end() ? kNoPath : it->second;
  };
  out.index.reserve(stored.ops.size());
  out.rows.reserve(stored.ops.size());
  // Aggregates of different modules meet in one row when --map gives the modules one path.
  for (const OpAggregate& o : stored.ops) {
    const std::string& path = module_path(o.module_id);
    std::string key;
    key.reserve(path.size() + o.name.size() + o.signature.size() + 2);
    key.append(path).push_back('\x1f');
    key.append(o.name).push_back('\x1f');
    key.append(o.signature);
    auto [it, inserted] = out.index.try_emplace(std::move(key), out.rows.size());
    const IterationTimes& times = gpu_time ? o.device_ns : o.host_ns;
    if (inserted) {
      Agg a;
      a.module_path = path;
      a.name = o.name;
      a.signature = o.signature;
      a.time = IterationSeries(static_cast<std::size_t>(out.iterations));
      a.time.reserve(times.size());
      out.rows.push_back(std::move(a));
    }
    Agg& a = out.rows[it->second];
    a.calls += static_cast<double>(o.calls);
    a.counted = a.counted || o.counted;
    a.flops += o.flops;
    a.bytes += o.bytes;
    a.kernels += static_cast<double>(o.kernels);
    for (const auto& [iteration, ns] : times) {
      a.time.add(slot(iteration), static_cast<double>(ns));
    }
  }
  return out;
}

namespace {

// Takes the row's time series (each row is used once).
SideCost side(Agg& a, int iterations, double total_time, double total_flops) {
  SideCost s;
  s.present = true;
  double per = 1.0 / iterations;
  s.ops = a.calls * per;
  s.kernels = a.kernels * per;
  s.flops = a.flops * per;
  s.bytes = a.bytes * per;
  s.flops_known = a.counted;
  s.time = latency_stats(std::move(a.time));
  s.share_time = total_time > 0 ? s.time.p50 / total_time : 0;
  s.share_flops = total_flops > 0 ? s.flops / total_flops : 0;
  return s;
}

int rank(DiffStatus s) { return static_cast<int>(s); }

}  // namespace

std::vector<OpDiff> diff_ops(const RunData& a, const SidePaths& paths_a, const RunData& b, const SidePaths& paths_b,
                             const DiffOptions& options, bool gpu_time, const RunTotals& totals_a,
                             const RunTotals& totals_b) {
  // Each row is used once below: its strings and time series move into the diff instead of being copied.
  auto rows_b = std::async(std::launch::async, [&] { return aggregate_op_rows(b, paths_b, gpu_time); });
  Aggregated aa = aggregate_op_rows(a, paths_a, gpu_time);
  Aggregated ab = rows_b.get();
  const double ta = totals_a.time.p50, fa = totals_a.flops, tb = totals_b.time.p50, fb = totals_b.flops;
  // B's row of each A row (one lookup per key), and which B rows were matched.
  constexpr std::size_t kNone = static_cast<std::size_t>(-1);
  std::vector<std::size_t> match(aa.rows.size(), kNone);
  std::vector<bool> matched_b(ab.rows.size(), false);
  // Op signatures in both runs: one time test each, at the Bonferroni level for all of them.
  int time_tests = 0;
  for (const auto& [key, ia] : aa.index) {
    auto it = ab.index.find(key);
    if (it == ab.index.end()) continue;
    match[ia] = it->second;
    matched_b[it->second] = true;
    ++time_tests;
  }
  auto take_names = [](OpDiff& d, Agg& r) {
    d.module_path = std::move(r.module_path);
    d.name = std::move(r.name);
    d.signature = std::move(r.signature);
  };
  std::vector<OpDiff> unsorted;
  unsorted.reserve(aa.rows.size() + ab.rows.size());
  for (const auto& [key, ia] : aa.index) {
    Agg& ra = aa.rows[ia];
    OpDiff d;
    d.a = side(ra, aa.iterations, ta, fa);
    take_names(d, ra);
    if (match[ia] == kNone) {
      d.status = DiffStatus::kVanished;
    } else {
      d.b = side(ab.rows[match[ia]], ab.iterations, tb, fb);
      d.time_diff = compare_time(d.a.time, d.b.time, options, &d.time_significant, time_tests);
      d.time_status = time_status_of(d.a.time, d.b.time, d.time_diff, d.time_significant);
      d.status = costs_differ(d.a, d.b, options) ? DiffStatus::kChanged : DiffStatus::kUnchanged;
    }
    unsorted.push_back(std::move(d));
  }
  for (const auto& [key, ib] : ab.index) {
    if (matched_b[ib]) continue;
    Agg& rb = ab.rows[ib];
    OpDiff d;
    d.b = side(rb, ab.iterations, tb, fb);
    take_names(d, rb);
    d.status = DiffStatus::kNew;
    unsorted.push_back(std::move(d));
  }
  // Sorted by index, then moved once: an OpDiff is large, and the keys of distinct rows never tie.
  std::vector<std::uint32_t> order(unsorted.size());
  for (std::uint32_t i = 0; i < order.size(); ++i) order[i] = i;
  std::sort(order.begin(), order.end(), [&](std::uint32_t i, std::uint32_t j) {
    const OpDiff& x = unsorted[i];
    const OpDiff& y = unsorted[j];
    if (rank(x.status) != rank(y.status)) return rank(x.status) < rank(y.status);
    double dx = std::fabs(x.b.time.p50 - x.a.time.p50), dy = std::fabs(y.b.time.p50 - y.a.time.p50);
    if (dx != dy) return dx > dy;
    return std::tie(x.module_path, x.name, x.signature) < std::tie(y.module_path, y.name, y.signature);
  });
  std::vector<OpDiff> out;
  out.reserve(unsorted.size());
  for (std::uint32_t i : order) out.push_back(std::move(unsorted[i]));
  return out;
}

}  // namespace flopscope
