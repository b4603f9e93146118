// Run database throughput: write and read 1M kernel rows and 1M op rows (the diff of two 1M-kernel runs
// must stay under 3 s including reading). Run: build/dev/tests/bench/db/bench_db
// "Time" is wall time; "CPU" is the whole process's CPU time (the reader uses several threads);
// items_per_second is rows per wall second, rows_per_cpu_s rows per second of process CPU time.
#include <benchmark/benchmark.h>
#include <unistd.h>

#include <cstdio>
#include <ctime>
#include <filesystem>
#include <string>

#include "db/run_database.h"

namespace flopscope {
namespace {

constexpr int kRows = 1'000'000;

std::string scratch_path(const char* name) {
  return (std::filesystem::temp_directory_path() /
          (std::string("flopscope-bench-") + name + "-" + std::to_string(::getpid()) + ".db"))
      .string();
}

// Kernels as a transformer decode produces them: a few hundred distinct names, every field set.
RunData kernel_run() {
  RunData run;
  run.info.tool_version = "bench";
  run.kernels.resize(kRows);
  for (int i = 0; i < kRows; ++i) {
    KernelRecord& k = run.kernels[static_cast<std::size_t>(i)];
    k.id = i;
    k.kind = i % 50 == 0 ? KernelKind::kMemcpy : KernelKind::kKernel;
    k.name = "void at::native::elementwise_kernel<128, 4, at::native::gpu_kernel_impl_" +
             std::to_string(i % 300) + ">";
    k.stream = 7;
    k.start_ns = 1000LL * i;
    k.duration_ns = 500 + i % 1000;
    k.grid = {i % 1024 + 1, 1, 1};
    k.block = {128, 1, 1};
    k.correlation = i;
    k.iteration = i / 100'000;
    k.op_id = i / 2;
    k.module_id = i % 400;
    k.has_counters = true;
    k.flops_fp32 = 2.0 * i;
    k.dram_bytes_read = 4096.0 + i;
    k.dram_bytes_written = 2048.0;
  }
  return run;
}

RunData op_run() {
  RunData run;
  run.info.tool_version = "bench";
  run.ops.resize(kRows);
  for (int i = 0; i < kRows; ++i) {
    OpRecord& o = run.ops[static_cast<std::size_t>(i)];
    o.id = i;
    o.sequence = i;
    o.name = i % 3 == 0 ? "aten::linear" : "aten::add";
    o.start_ns = 1000LL * i;
    o.duration_ns = 800;
    o.module_id = i % 400;
    o.parent_op_id = i % 3 == 0 ? kNoId : i - 1;
    o.args = {{true, "float32", {1, 4096, 64}, ""}, {true, "float32", {64, 64}, ""}, {false, "", {}, "1"}};
    o.flops = 2.0 * 4096 * 64 * 64;
    o.flops_source = FlopsSource::kFormula;
  }
  return run;
}

double process_cpu_seconds() {
  timespec t{};
  ::clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_nsec) * 1e-9;
}

// Rows per second of process CPU time: comparable across runs on a busy machine, where wall time is not.
class CpuRate {
 public:
  CpuRate() : start_(process_cpu_seconds()) {}
  void report(benchmark::State& state, double rows) {
    state.counters["rows_per_cpu_s"] = rows / (process_cpu_seconds() - start_);
  }

 private:
  double start_;
};

void write(const RunData& run, const std::string& path, benchmark::State& state) {
  auto sink = create_run_database(path, true);
  if (!sink.ok()) {
    state.SkipWithError(sink.status().message().c_str());
    return;
  }
  Status s = write_run(**sink, run);
  if (!s.ok()) state.SkipWithError(s.message().c_str());
}

void BM_WriteKernels(benchmark::State& state) {
  const RunData run = kernel_run();
  const std::string path = scratch_path("write-kernels");
  CpuRate rate;
  for (auto _ : state) write(run, path, state);
  rate.report(state, static_cast<double>(state.iterations() * kRows));
  state.SetItemsProcessed(state.iterations() * kRows);
  state.counters["file_MB"] = static_cast<double>(std::filesystem::file_size(path)) / 1e6;
  std::filesystem::remove(path);
}

void BM_ReadKernels(benchmark::State& state) {
  const std::string path = scratch_path("read-kernels");
  write(kernel_run(), path, state);
  CpuRate rate;
  for (auto _ : state) {
    auto run = read_run_database(path);
    if (!run.ok() || run->kernels.size() != kRows) state.SkipWithError("read failed");
    benchmark::DoNotOptimize(run);
  }
  rate.report(state, static_cast<double>(state.iterations() * kRows));
  state.SetItemsProcessed(state.iterations() * kRows);
  std::filesystem::remove(path);
}

void BM_WriteOps(benchmark::State& state) {
  const RunData run = op_run();
  const std::string path = scratch_path("write-ops");
  CpuRate rate;
  for (auto _ : state) write(run, path, state);
  rate.report(state, static_cast<double>(state.iterations() * kRows));
  state.SetItemsProcessed(state.iterations() * kRows);
  state.counters["file_MB"] = static_cast<double>(std::filesystem::file_size(path)) / 1e6;
  std::filesystem::remove(path);
}

void BM_ReadOps(benchmark::State& state) {
  const std::string path = scratch_path("read-ops");
  write(op_run(), path, state);
  CpuRate rate;
  for (auto _ : state) {
    auto run = read_run_database(path);
    if (!run.ok() || run->ops.size() != kRows) state.SkipWithError("read failed");
    benchmark::DoNotOptimize(run);
  }
  rate.report(state, static_cast<double>(state.iterations() * kRows));
  state.SetItemsProcessed(state.iterations() * kRows);
  std::filesystem::remove(path);
}

BENCHMARK(BM_WriteKernels)
    ->Unit(benchmark::kMillisecond)
    ->Iterations(2)
    ->UseRealTime()
    ->MeasureProcessCPUTime();
BENCHMARK(BM_ReadKernels)
    ->Unit(benchmark::kMillisecond)
    ->Iterations(2)
    ->UseRealTime()
    ->MeasureProcessCPUTime();
BENCHMARK(BM_WriteOps)->Unit(benchmark::kMillisecond)->Iterations(2)->UseRealTime()->MeasureProcessCPUTime();
BENCHMARK(BM_ReadOps)->Unit(benchmark::kMillisecond)->Iterations(2)->UseRealTime()->MeasureProcessCPUTime();

}  // namespace
}  // namespace flopscope

BENCHMARK_MAIN();
