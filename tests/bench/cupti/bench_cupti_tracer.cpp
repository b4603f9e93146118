// Host-side cost of tracing, per event, with CUPTI replaced by the fake: a kernel launch's ENTER + EXIT
// callbacks (scope lookup, correlation map), an NVTX push + pop, and turning activity records into the
// run (iteration through the real cuptiActivityGetNextRecord, attribution, module tree).
#include <benchmark/benchmark.h>

#include "activity_buffer.h"
#include "callbacks.h"
#include "fake_cupti.h"

namespace flopscope::gpu {
namespace {

void BM_LaunchCallbacks(benchmark::State& state) {
  testing::FakeCupti fake;
  Tracer tracer(fake, {});
  if (!tracer.start().ok()) state.SkipWithError("start failed");
  testing::Driver d(tracer);
  d.push("layers.0.attn");
  std::uint32_t corr = 1;
  for (auto _ : state) d.launch(corr++, "_Z6kernelv");
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_LaunchCallbacks);

void BM_NvtxPushPop(benchmark::State& state) {
  testing::FakeCupti fake;
  Tracer tracer(fake, {});
  if (!tracer.start().ok()) state.SkipWithError("start failed");
  testing::Driver d(tracer);
  for (auto _ : state) {
    d.push("layers.0");
    d.pop();
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_NvtxPushPop);

void BM_RecordsToRun(benchmark::State& state) {
  const auto n = static_cast<std::uint32_t>(state.range(0));
  for (auto _ : state) {
    state.PauseTiming();
    testing::FakeCupti fake;
    Tracer tracer(fake, {});
    (void)tracer.start();
    testing::Driver d(tracer);
    d.push("blocks");
    for (std::uint32_t i = 1; i <= n; ++i) d.launch(i, "_Z6kernelv");
    d.pop();
    std::vector<testing::ActivityBuffer> buffers(n / 256 + 1);
    for (std::uint32_t i = 1; i <= n; ++i)
      buffers[i / 256].add(testing::kernel_record("_Z6kernelv", i, i * 10, i * 10 + 5));
    state.ResumeTiming();
    for (auto& b : buffers) tracer.handle_buffer(b.data(), b.size());
    tracer.stop();
    RunData run = tracer.take_run({});
    benchmark::DoNotOptimize(run.kernels.data());
  }
  state.SetItemsProcessed(state.iterations() * n);
}
BENCHMARK(BM_RecordsToRun)->Arg(10000)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace flopscope::gpu

BENCHMARK_MAIN();
