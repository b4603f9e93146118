// The roofline plot of a run: every module with work of its own placed by arithmetic intensity (FLOPs per
// byte) and achieved FLOP/s, under the device's roof. Computed once here; `flopscope roofline` writes it
// as SVG. Conventions are part of the result (which bytes, which clock), so every view labels them.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "analyzer/peaks.h"
#include "analyzer/summary.h"

namespace flopscope::graphs {

struct RooflinePoint {
  int module = -1;   // index into RunSummary::modules
  std::string path;  // "" for the root's own ops
  std::string type;
  double flops = 0;       // self FLOPs per iteration (analytic)
  double bytes = 0;       // self bytes per iteration: measured DRAM when the run has it, else analytic
  double time_ns = 0;     // self time per iteration (mean): device time on runs with kernels, else host
  double intensity = 0;   // flops / bytes
  double achieved = 0;    // flops / time, FLOP/s
  double attainable = 0;  // min(peak, intensity x bandwidth) with a roof, else 0
  bool memory_bound = false;
  std::string text;  // the tooltip: path, type, numbers with units, share of attainable
};

struct RooflinePlot {
  std::optional<DevicePeak> peak;     // the roof; none for CPU runs without --peak
  std::string bytes_kind;             // "measured DRAM bytes" or "analytic bytes (minimum traffic)"
  std::string clock;                  // "device time" or "host time"
  std::vector<RooflinePoint> points;  // descending time: the costliest first
  double time_covered_ns = 0;         // time per iteration of the plotted points
  double time_total_ns = 0;           // the run's time per iteration on the same clock
  std::vector<std::string> notes;     // honest caveats: modules left out and why, no roof
};

// Points from each module's own work (self cost and self time), so that no FLOP is plotted twice; modules
// without FLOPs, bytes or time of their own are left out and counted in the notes.
RooflinePlot roofline_plot(const RunSummary& summary, const std::optional<DevicePeak>& peak);

// A standalone SVG: log-log axes with decade ticks, the roof (bandwidth slope and compute ceiling, ridge
// marked), one circle per point with a <title> tooltip, the costliest points labelled.
std::string roofline_svg(const RooflinePlot& plot, const std::string& title, int width = 1000,
                         int height = 700);

}  // namespace flopscope::graphs
