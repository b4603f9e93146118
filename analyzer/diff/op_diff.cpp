#include "analyzer/diff/op_diff.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <future>
#include <map>
#include <span>
#include <string_view>
#include <tuple>
#include <unordered_map>
#include <utility>
#include <vector>

#include "analyzer/diff/compare.h"
#include "analyzer/diff/op_key_index.h"
#include "analyzer/iterations.h"
#include "analyzer/op_category.h"

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

// One op signature of one side of a diff: its names view the run's strings and the side's module paths.
struct SideRow {
  OpKey key;
  std::size_t hash = 0;
  double calls = 0, flops = 0, nested_flops = 0, bytes = 0, kernels = 0;
  bool counted = false;
  std::uint32_t match = OpKeyIndex::kAbsent;  // the other side's row
};

// The op signatures of one side, summed the way aggregate_op_rows sums them, without a string or a time
// series allocated per row: times are dense, `iterations` per row.
struct SideRows {
  RunAggregates computed;          // a run read whole: its rows aggregated here (the views point into it)
  std::vector<std::string> paths;  // per module of the run, as the side's paths name it
  std::vector<SideRow> rows;
  std::vector<double> times;  // rows x iterations
  OpKeyIndex index;
  int iterations = 1;
};

void gather(const RunData& run, const SidePaths& paths, bool gpu_time, SideRows& out) {
  if (run.raw_rows) out.computed = aggregate_rows(run.ops, run.kernels);
  const RunAggregates& stored = run.raw_rows ? out.computed : run.aggregates;
  const IterationIndex slot(run);
  out.iterations = slot.count();
  const auto n_it = static_cast<std::size_t>(out.iterations);
  std::unordered_map<Id, std::uint32_t> module_of;
  module_of.reserve(run.modules.size());
  out.paths.reserve(run.modules.size() + 1);
  std::vector<std::size_t> path_hash;
  path_hash.reserve(run.modules.size() + 1);
  for (const auto& m : run.modules) {
    // The first module of an id names it, as in aggregate_op_rows.
    if (module_of.try_emplace(m.id, static_cast<std::uint32_t>(out.paths.size())).second) {
      out.paths.push_back(paths(m.path));
      path_hash.push_back(OpKeyIndex::hash_part(out.paths.back()));
    }
  }
  const auto no_module = static_cast<std::uint32_t>(out.paths.size());
  out.paths.emplace_back();  // ops of no known module: the empty path
  path_hash.push_back(OpKeyIndex::hash_part(""));
  out.rows.reserve(stored.ops.size());
  out.times.reserve(stored.ops.size() * n_it);
  out.index = OpKeyIndex(stored.ops.size());
  // Aggregates of different modules meet in one row when --map gives the modules one path.
  for (const OpAggregate& o : stored.ops) {
    auto found = module_of.find(o.module_id);
    const std::uint32_t m = found == module_of.end() ? no_module : found->second;
    const OpKey key{out.paths[m], o.name, o.signature};
    const std::size_t hash = OpKeyIndex::hash(key, path_hash[m]);
    bool inserted = false;
    const std::uint32_t r =
        out.index.insert(key, hash, static_cast<std::uint32_t>(out.rows.size()), &inserted);
    if (inserted) {
      out.rows.push_back({key, hash});
      out.times.resize(out.times.size() + n_it, 0.0);
    }
    SideRow& a = out.rows[r];
    a.calls += static_cast<double>(o.calls);
    a.counted = a.counted || o.counted;
    a.flops += o.flops;
    a.nested_flops += o.nested_flops;
    a.bytes += o.bytes;
    a.kernels += static_cast<double>(o.kernels);
    double* t = out.times.data() + static_cast<std::size_t>(r) * n_it;
    // Durations are whole nanoseconds: their sums in doubles are exact, in any order.
    for (const auto& [iteration, ns] : gpu_time ? o.device_ns : o.host_ns)
      t[slot(iteration)] += static_cast<double>(ns);
  }
}

SideCost side(const SideRows& rows, std::uint32_t r, double total_time, double total_flops) {
  const SideRow& a = rows.rows[r];
  SideCost s;
  s.present = true;
  const double per = 1.0 / rows.iterations;
  s.ops = a.calls * per;
  s.kernels = a.kernels * per;
  s.flops = a.flops * per;
  s.nested_flops = a.nested_flops * per;
  s.bytes = a.bytes * per;
  s.flops_known = a.counted;
  const auto n_it = static_cast<std::size_t>(rows.iterations);
  s.time = latency_stats(IterationSeries::from_dense(
      std::span<const double>(rows.times.data() + static_cast<std::size_t>(r) * n_it, n_it)));
  s.share_time = total_time > 0 ? s.time.p50 / total_time : 0;
  s.share_flops = total_flops > 0 ? s.flops / total_flops : 0;
  return s;
}

void take_names(OpDiff& d, const SideRow& r) {
  d.module_path = r.key.path;
  d.name = r.key.name;
  d.signature = r.key.signature;
  d.category = op_category(d.name);
  d.orphan_kernels = is_orphan_kernel_row(d.name);
}

int rank(DiffStatus s) {
  return static_cast<int>(s);
}

}  // namespace

bool ranked_op(const OpDiff& o) {
  if (o.orphan_kernels) return false;
  auto costs = [](const SideCost& s) { return s.present && (s.time.max > 0 || s.flops > 0 || s.bytes > 0); };
  return costs(o.a) || costs(o.b);
}

CategorySummary summarize_categories(const std::vector<OpDiff>& ops, bool gpu_time) {
  CategorySummary out;
  out.timed = gpu_time;
  out.rows.resize(kOpCategoryCount);
  for (int c = 0; c < kOpCategoryCount; ++c) out.rows[static_cast<std::size_t>(c)].category = OpCategory(c);
  for (const OpDiff& o : ops) {
    CategoryDiff& row = out.rows[static_cast<std::size_t>(o.category)];
    // Means add up over rows (the P50s of a sum need not): the shares of a side sum to 100%. Host times
    // of nested ops overlap: left at 0.
    const double ta = o.a.present && gpu_time ? o.a.time.mean : 0;
    const double tb = o.b.present && gpu_time ? o.b.time.mean : 0;
    if (o.a.present) {
      ++row.signatures_a;
      row.time_a += ta;
      row.flops_a += o.a.flops;
      out.time_a += ta;
    }
    if (o.b.present) {
      ++row.signatures_b;
      row.time_b += tb;
      row.flops_b += o.b.flops;
      out.time_b += tb;
    }
    if (o.orphan_kernels) {
      out.orphan_signatures_a += o.a.present ? 1 : 0;
      out.orphan_signatures_b += o.b.present ? 1 : 0;
      out.orphan_time_a += ta;
      out.orphan_time_b += tb;
    }
  }
  for (CategoryDiff& row : out.rows) {
    row.share_a = out.time_a > 0 ? row.time_a / out.time_a : 0;
    row.share_b = out.time_b > 0 ? row.time_b / out.time_b : 0;
  }
  return out;
}

std::vector<OpDiff> diff_ops(const RunData& a, const SidePaths& paths_a, const RunData& b,
                             const SidePaths& paths_b, const DiffOptions& options,
                             const ProcessSplit& processes, bool gpu_time, const RunTotals& totals_a,
                             const RunTotals& totals_b) {
  SideRows aa, ab;
  auto rows_b = std::async(std::launch::async, [&] { gather(b, paths_b, gpu_time, ab); });
  gather(a, paths_a, gpu_time, aa);
  rows_b.get();
  const double ta = totals_a.time.p50, fa = totals_a.flops, tb = totals_b.time.p50, fb = totals_b.flops;
  // B's row of each A row (one lookup per key), and so which B rows were matched.
  // Op signatures in both runs: one time test each, at the Bonferroni level for all of them.
  int time_tests = 0;
  for (std::uint32_t ia = 0; ia < aa.rows.size(); ++ia) {
    SideRow& ra = aa.rows[ia];
    const std::uint32_t ib = ab.index.find(ra.key, ra.hash);
    if (ib == OpKeyIndex::kAbsent) continue;
    ra.match = ib;
    ab.rows[ib].match = ia;
    ++time_tests;
  }
  std::vector<OpDiff> unsorted;
  unsorted.reserve(aa.rows.size() + ab.rows.size());
  for (std::uint32_t ia = 0; ia < aa.rows.size(); ++ia) {
    const SideRow& ra = aa.rows[ia];
    OpDiff& d = unsorted.emplace_back();
    d.a = side(aa, ia, ta, fa);
    take_names(d, ra);
    if (ra.match == OpKeyIndex::kAbsent) {
      d.status = DiffStatus::kVanished;
    } else {
      d.b = side(ab, ra.match, tb, fb);
      d.time_diff = compare_time(d.a.time, d.b.time, options, processes, &d.time_significant, time_tests);
      d.time_status = time_status_of(d.a.time, d.b.time, d.time_diff, d.time_significant);
      d.status = costs_differ(d.a, d.b, options) ? DiffStatus::kChanged : DiffStatus::kUnchanged;
    }
  }
  for (std::uint32_t ib = 0; ib < ab.rows.size(); ++ib) {
    const SideRow& rb = ab.rows[ib];
    if (rb.match != OpKeyIndex::kAbsent) continue;
    OpDiff& d = unsorted.emplace_back();
    d.b = side(ab, ib, tb, fb);
    take_names(d, rb);
    d.status = DiffStatus::kNew;
  }
  // Sorted by index (ranked rows first, then |time delta|, then status, from a compact array), then moved
  // once: an OpDiff is large. The keys of distinct rows never tie, so the order is the same whatever order
  // the rows came in. An absent side's time is 0 (its P50 is), so a vanished row moves by all its time.
  struct SortKey {
    bool ranked;
    double dt;
    int rank;
    std::uint32_t row;
  };
  std::vector<SortKey> order(unsorted.size());
  for (std::uint32_t i = 0; i < order.size(); ++i) {
    const OpDiff& x = unsorted[i];
    order[i] = {ranked_op(x), std::fabs(x.b.time.p50 - x.a.time.p50), rank(x.status), i};
  }
  std::sort(order.begin(), order.end(), [&](const SortKey& i, const SortKey& j) {
    if (i.ranked != j.ranked) return i.ranked;
    if (i.dt != j.dt) return i.dt > j.dt;
    if (i.rank != j.rank) return i.rank < j.rank;
    const OpDiff& x = unsorted[i.row];
    const OpDiff& y = unsorted[j.row];
    return std::tie(x.module_path, x.name, x.signature) < std::tie(y.module_path, y.name, y.signature);
  });
  // Permuted in place, cycle by cycle (position k takes row order[k].row), so no second vector of them is
  // held.
  std::vector<bool> placed(order.size(), false);
  for (std::size_t k = 0; k < order.size(); ++k) {
    if (placed[k]) continue;
    OpDiff first = std::move(unsorted[k]);
    std::size_t j = k;
    while (true) {
      placed[j] = true;
      const std::size_t from = order[j].row;
      if (from == k) {
        unsorted[j] = std::move(first);
        break;
      }
      unsorted[j] = std::move(unsorted[from]);
      j = from;
    }
  }
  return unsorted;
}

}  // namespace flopscope
