// Collector overhead: the same model, the same inputs, forward passes with and without the op observer,
// interleaved in rounds so that drift on a shared machine hits both sides alike. Prints the median
// iteration time of each and their ratio.
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
  std::vector<double> off, on;
  std::size_t ops = 0;
  for (int r = 0; r < rounds; ++r) {
    for (bool observe : {false, true}) {
      TorchProfileOptions o;
      o.model_path = argv[1];
      o.inputs = {*spec};
      o.iterations = iters;
      o.warmup = 1;
      o.observe = observe;
      auto p = profile_torchscript(o);
      if (!p.ok()) {
        std::fprintf(stderr, "%s\n", p.status().message().c_str());
        return 2;
      }
      auto& to = observe ? on : off;
      to.insert(to.end(), p->iteration_wall_ns.begin(), p->iteration_wall_ns.end());
      if (observe) ops = p->run.ops.size() / static_cast<std::size_t>(iters);
    }
  }
  LatencyStats a = latency_stats(off), b = latency_stats(on);
  MedianDifference d = median_difference(off, on);
  std::printf("model %s input %s: %zu ops per iteration, %d rounds x %d iterations each side\n", argv[1], argv[2], ops,
              rounds, iters);
  std::printf("  without observer: median %.3f ms (p90 %.3f)\n", a.p50 / 1e6, a.p90 / 1e6);
  std::printf("  with observer:    median %.3f ms (p90 %.3f)\n", b.p50 / 1e6, b.p90 / 1e6);
  std::printf("  ratio with/without: %.4f (overhead %+.2f%%; 95%% CI of the difference %+.3f..%+.3f ms)\n",
              b.p50 / a.p50, 100 * (b.p50 / a.p50 - 1), d.ci_low / 1e6, d.ci_high / 1e6);
  return 0;
}
