// Collector overhead: the same model, the same inputs, forward passes without the op observer, with it, and
// with it plus --activations statistics, interleaved in rounds so that drift on a shared machine hits every
// side alike. Prints the median iteration time of each and the ratios. With --activations most statistics
// are computed between ops, inside the timed forward call; the calls still open when a request ends are
// closed after it, so the total statistics cost is printed as well.
//
// usage: bench_collector_overhead MODEL.pt SPEC [ROUNDS=5] [ITERS=5]
#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include "analyzer/latency.h"
#include "collector/torch/torch_profiler.h"

int main(int argc, char** argv) {
  using namespace flopscope;
  if (argc < 3) {
    std::fprintf(stderr, "usage: %s MODEL.pt SPEC [ROUNDS] [ITERS]\n", argv[0]);
    return 2;
  }
  const int rounds = argc > 3 ? std::stoi(argv[3]) : 5;
  const int iters = argc > 4 ? std::stoi(argv[4]) : 5;
  auto spec = parse_input_spec(argv[2]);
  if (!spec.ok()) {
    std::fprintf(stderr, "%s\n", spec.status().message().c_str());
    return 2;
  }
  std::vector<double> off, on, act;
  double stats_ns = 0;
  std::size_t ops = 0;
  for (int r = 0; r < rounds; ++r) {
    for (int mode = 0; mode < 3; ++mode) {
      const bool observe = mode > 0;
      TorchProfileOptions o;
      o.model_path = argv[1];
      o.inputs = {*spec};
      o.iterations = iters;
      o.warmup = 1;
      o.observe = observe;
      o.activations = mode == 2;
      auto p = profile_torchscript(o);
      if (!p.ok()) {
        std::fprintf(stderr, "%s\n", p.status().message().c_str());
        return 2;
      }
      auto& to = mode == 0 ? off : mode == 1 ? on : act;
      to.insert(to.end(), p->iteration_wall_ns.begin(), p->iteration_wall_ns.end());
      if (mode == 2) stats_ns += p->activation_cost_ns;
      if (mode == 1) ops = p->run.ops.size() / static_cast<std::size_t>(iters);
    }
  }
  LatencyStats a = latency_stats(off), b = latency_stats(on), c = latency_stats(act);
  MedianDifference d = median_difference(off, on);
  std::printf("model %s input %s: %zu ops per iteration, %d rounds x %d iterations each side\n", argv[1],
              argv[2], ops, rounds, iters);
  std::printf("  without observer: median %.3f ms (p90 %.3f)\n", a.p50 / 1e6, a.p90 / 1e6);
  std::printf("  with observer:    median %.3f ms (p90 %.3f)\n", b.p50 / 1e6, b.p90 / 1e6);
  std::printf("  ratio with/without: %.4f (overhead %+.2f%%; 95%% CI of the difference %+.3f..%+.3f ms)\n",
              b.p50 / a.p50, 100 * (b.p50 / a.p50 - 1), d.ci_low / 1e6, d.ci_high / 1e6);
  std::printf("  with --activations: median %.3f ms; ratio to plain profile %.4f, to no observer %.4f\n",
              c.p50 / 1e6, c.p50 / b.p50, c.p50 / a.p50);
  double act_total = 0;
  for (double t : act) act_total += t;
  std::printf("  --activations statistics: %.1f ms in all, %.1f%% of the forward time of those runs\n",
              stats_ns / 1e6, act_total > 0 ? 100 * stats_ns / act_total : 0.0);
  return 0;
}
