#include "graphs/roofline_plot.h"

#include <algorithm>
#include <cmath>

#include "analyzer/clock.h"
#include "analyzer/format.h"

namespace flopscope::graphs {
namespace {

// Per-iteration self time of module i on the run's clock (analyzer/clock.h). Device time is recorded per
// subtree, so a module's own share is its subtree's minus its children's (sums over iterations, then per
// iteration); host self time is the module's own outermost ops.
double self_time_ns(const RunSummary& s, std::size_t i) {
  const double iterations = std::max(1, s.iterations);
  const Clock clock = run_clock(s);
  const ModuleSummary& m = s.modules[i];
  if (clock == Clock::kHost) return self_time(m, clock).values.sum() / iterations;
  double own = inclusive_time(m, clock).values.sum();
  for (int c : m.children) own -= inclusive_time(s.modules[static_cast<std::size_t>(c)], clock).values.sum();
  return std::max(0.0, own) / iterations;
}

}  // namespace

RooflinePlot roofline_plot(const RunSummary& s, const std::optional<DevicePeak>& peak) {
  RooflinePlot plot;
  plot.peak = peak;
  const bool measured = s.total.dram_bytes > 0;
  plot.bytes_kind = measured ? "measured DRAM bytes" : "analytic bytes (minimum traffic)";
  // A trace of kernels and counters only (Nsight Compute): no op to count, so the counters' FLOPs are the
  // work, said in a note.
  const bool measured_flops = s.total.flops <= 0 && s.total.measured_flops + s.total.tensor_flops > 0;
  if (measured_flops)
    plot.notes.push_back("FLOPs measured by hardware counters (the trace has no ops with an analytic count)");
  const Clock clock = run_clock(s);
  plot.clock = std::string(to_string(clock)) + " time";
  const double iterations = std::max(1, s.iterations);
  plot.time_total_ns = s.modules.empty() ? 0 : inclusive_time(s.modules[0], clock).values.sum() / iterations;
  int no_flops = 0, no_bytes = 0, no_time = 0;
  double left_out_ns = 0;
  for (std::size_t i = 0; i < s.modules.size(); ++i) {
    const ModuleSummary& m = s.modules[i];
    RooflinePoint p;
    p.module = static_cast<int>(i);
    p.path = m.path;
    p.type = m.type;
    p.flops = measured_flops ? m.self.measured_flops + m.self.tensor_flops : m.self.flops;
    p.bytes = measured ? m.self.dram_bytes : m.self.bytes();
    p.time_ns = self_time_ns(s, i);
    if (p.flops <= 0 && p.bytes <= 0 && p.time_ns <= 0) continue;  // a container: nothing of its own
    if (p.flops <= 0 || p.bytes <= 0 || p.time_ns <= 0) {
      (p.flops <= 0 ? no_flops : p.bytes <= 0 ? no_bytes : no_time)++;
      left_out_ns += p.time_ns;
      continue;
    }
    // The bound by the core's one rule (analyzer/peaks: roofline), as the report tables state it.
    const Roofline r = peak && peak->flops_per_s > 0 && peak->bytes_per_s > 0
                           ? roofline(p.flops, p.bytes, p.time_ns, *peak)
                           : device_rates(p.flops, p.bytes, p.time_ns, std::nullopt);
    p.intensity = r.intensity;
    p.achieved = r.achieved_flops_per_s;
    p.attainable = r.attainable_flops_per_s;
    p.memory_bound = r.memory_bound;
    p.text = (p.path.empty() ? std::string("(model)") : p.path) + " (" + p.type +
             "): " + flops_text(p.flops) + ", " + bytes_text(p.bytes) + ", " + time_text(p.time_ns) +
             " per iteration; " + si_text(p.intensity, "FLOP/B") + ", " + si_text(p.achieved, "FLOP/s");
    if (p.attainable > 0) {
      p.text += "; " + percent_text(p.achieved / p.attainable) + " of attainable (" +
                (p.memory_bound ? "memory" : "compute") + "-bound)";
    }
    plot.time_covered_ns += p.time_ns;
    plot.points.push_back(std::move(p));
  }
  std::sort(plot.points.begin(), plot.points.end(),
            [](const RooflinePoint& a, const RooflinePoint& b) { return a.time_ns > b.time_ns; });
  if (no_flops > 0)
    plot.notes.push_back(std::to_string(no_flops) +
                         " modules with no FLOPs of their own (or FLOPs unknown) left out");
  if (no_bytes > 0)
    plot.notes.push_back(std::to_string(no_bytes) + " modules with FLOPs but no " + plot.bytes_kind +
                         " left out");
  if (no_time > 0)
    plot.notes.push_back(std::to_string(no_time) + " modules with no " + plot.clock +
                         " of their own left out");
  if (left_out_ns > 0) plot.notes.push_back(time_text(left_out_ns) + " per iteration in modules left out");
  if (!peak) {
    plot.notes.push_back(s.has_kernels
                             ? "no roof: the device is not in the peak table; pass --peak FLOPS:BYTES_PER_S"
                             : "no roof for a CPU run: pass --peak FLOPS:BYTES_PER_S (e.g. measured with a "
                               "STREAM and a GEMM benchmark on this machine)");
  }
  return plot;
}

}  // namespace flopscope::graphs
