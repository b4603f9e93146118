// The module icicle (a flame graph of the module tree): one rectangle per module, its width the module's
// inclusive cost, its children laid out beneath it. Computed once here; `flopscope flame` writes it as SVG
// and the GUI's Flame page draws the same cells, so both show the same picture.
#pragma once

#include <string>
#include <vector>

#include "analyzer/summary.h"
#include "graphs/graph_diff.h"

namespace flopscope::graphs {

struct IcicleOptions {
  CostMetric metric = CostMetric::kTime;
  int root = 0;                  // module index (RunSummary::modules) drawn full width: click to zoom
  double min_fraction = 0.0005;  // cells narrower than this share of the root are left out
};

struct IcicleCell {
  int module = -1;  // index into RunSummary::modules
  int depth = 0;    // 0 for the root cell
  double x0 = 0;    // [x0, x1) as fractions of the root's width
  double x1 = 0;
  double value = 0;        // inclusive cost in the metric's unit (FLOPs, bytes, ns)
  double share = 0;        // value / root value
  std::string label;       // last path component ("" root shows as "(model)")
  std::string value_text;  // the value with its unit, "12.3 ms"
  std::string text;        // "layers.0.attn: 12.3 ms (45.6%)": the tooltip and SVG title
  const char* fill = "#ffffff";
};

struct Icicle {
  CostMetric metric = CostMetric::kTime;
  std::string measure;  // what the widths are: "host time P50 per iteration", "FLOPs per iteration", ...
  double root_value = 0;
  std::string root_text;  // root_value with its unit
  int depth = 0;          // number of rows
  std::vector<IcicleCell> cells;
  std::vector<std::string> notes;  // honest caveats (e.g. unknown FLOPs, children wider than the parent)
};

// Inclusive cost per iteration of module i in the metric: FLOPs, bytes, or time (device time P50 when the
// run has kernels, host time P50 otherwise).
double icicle_value(const RunSummary& summary, int module, CostMetric metric);

Icicle icicle_layout(const RunSummary& summary, const IcicleOptions& options = {});

// A standalone SVG of the icicle: rectangles with <title> tooltips, a heading naming the measure.
std::string icicle_svg(const Icicle& icicle, const RunSummary& summary, const std::string& title,
                       int width = 1600);

}  // namespace flopscope::graphs
