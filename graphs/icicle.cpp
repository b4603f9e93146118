#include "graphs/icicle.h"

#include <algorithm>
#include <cstdint>

#include "analyzer/clock.h"
#include "analyzer/format.h"
#include "db/model/module_path.h"
#include "graphs/heat.h"

namespace flopscope::graphs {
namespace {

std::string last_component(const std::string& path) {
  return path.empty() ? "(model)" : std::string(path_leaf(path));
}

std::string measure_name(const RunSummary& summary, CostMetric metric) {
  switch (metric) {
    case CostMetric::kFlops:
      return "FLOPs per iteration (analytic)";
    case CostMetric::kBytes:
      return "bytes per iteration (analytic)";
    case CostMetric::kTime:
      break;
  }
  return std::string(to_string(run_clock(summary))) + " time P50 per iteration";
}

// Warm flame colours, one per module type (every attention block alike), stable across runs and machines.
const char* type_fill(const std::string& type) {
  static constexpr const char* kWarm[] = {"#f4a259", "#e76f51", "#f6bd60", "#e9c46a", "#f28482",
                                          "#ee9b00", "#ca6702", "#f7b267", "#f79d65", "#e5989b"};
  std::uint32_t h = 2166136261u;  // FNV-1a
  for (unsigned char c : type) h = (h ^ c) * 16777619u;
  return kWarm[h % (sizeof kWarm / sizeof kWarm[0])];
}

}  // namespace

double icicle_value(const RunSummary& summary, int module, CostMetric metric) {
  const ModuleSummary& m = summary.modules[static_cast<std::size_t>(module)];
  switch (metric) {
    case CostMetric::kFlops:
      return m.inclusive.flops;
    case CostMetric::kBytes:
      return m.inclusive.bytes();
    case CostMetric::kTime:
      break;
  }
  return inclusive_time(m, run_clock(summary)).p50;
}

Icicle icicle_layout(const RunSummary& summary, const IcicleOptions& options) {
  Icicle out;
  out.metric = options.metric;
  out.measure = measure_name(summary, options.metric);
  if (summary.modules.empty() || options.root < 0 || options.root >= static_cast<int>(summary.modules.size()))
    return out;
  out.root_value = icicle_value(summary, options.root, options.metric);
  out.root_text = format_metric(out.root_value, options.metric);
  if (out.root_value <= 0) {
    out.notes.push_back("the root has no " + out.measure + ": nothing to draw");
    return out;
  }
  std::vector<double> all;
  all.reserve(summary.modules.size());
  for (std::size_t i = 0; i < summary.modules.size(); ++i)
    all.push_back(icicle_value(summary, static_cast<int>(i), options.metric));
  bool squeezed = false;

  // Depth-first with an explicit stack: module trees from traces can be deep.
  struct Pending {
    int module;
    int depth;
    double x0;
    double x1;
  };
  std::vector<Pending> stack{{options.root, 0, 0.0, 1.0}};
  while (!stack.empty()) {
    Pending p = stack.back();
    stack.pop_back();
    const ModuleSummary& m = summary.modules[static_cast<std::size_t>(p.module)];
    double value = all[static_cast<std::size_t>(p.module)];
    IcicleCell cell;
    cell.module = p.module;
    cell.depth = p.depth;
    cell.x0 = p.x0;
    cell.x1 = p.x1;
    cell.value = value;
    cell.share = value / out.root_value;
    cell.label = last_component(m.path);
    cell.value_text = format_metric(value, options.metric);
    cell.text = (m.path.empty() ? std::string("(model)") : m.path) + ": " + cell.value_text + " (" +
                percent_text(cell.share) + " of the view)";
    cell.fill = type_fill(m.type);
    out.depth = std::max(out.depth, p.depth + 1);
    out.cells.push_back(std::move(cell));

    // Children side by side from the left; what is left over is the module's own (self) cost. Percentiles
    // of children need not add up to the parent's, so a sum above the parent is scaled to fit and noted.
    double sum = 0;
    for (int c : m.children) sum += std::max(0.0, all[static_cast<std::size_t>(c)]);
    if (sum <= 0) continue;
    double scale_to_parent = sum > value ? value / sum : 1.0;
    squeezed = squeezed || sum > value * 1.0001;
    double width = p.x1 - p.x0;
    double x = p.x0;
    std::vector<Pending> kids;
    for (int c : m.children) {
      double v = std::max(0.0, all[static_cast<std::size_t>(c)]);
      double w = value > 0 ? width * v * scale_to_parent / value : 0;
      if (w >= options.min_fraction) kids.push_back({c, p.depth + 1, x, x + w});
      x += w;
    }
    // Pushed in reverse so cells come out in module order.
    for (auto it = kids.rbegin(); it != kids.rend(); ++it) stack.push_back(*it);
  }
  if (squeezed)
    out.notes.push_back(
        "some modules' children add up to more than the module's own P50 (percentiles do not add); "
        "those children are scaled to fit");
  if (options.metric == CostMetric::kFlops && summary.ops_with_formula < summary.ops_total)
    out.notes.push_back(
        "FLOPs are a lower bound: " + std::to_string(summary.ops_total - summary.ops_with_formula) +
        " ops have no formula");
  return out;
}

}  // namespace flopscope::graphs
