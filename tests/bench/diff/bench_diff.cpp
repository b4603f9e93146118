// Diff of two runs of 1 million kernels each, end to end: read both run databases, diff, and render
// nothing (the printers are linear in the number of changed rows). Target: under 1 s (issue #18).
//
// Usage: bench_diff [DIR] [KERNELS] [memory|keep|reuse|write]   (DIR defaults to the system temp directory;
// `memory` skips the databases and times summarize + diff of runs built in memory; `keep` leaves the two
// databases in DIR, for a golden comparison of `flopscope diff` output; `write` only writes A, timed, and
// keeps it: the write rate run_all.sh puts next to sqlite3's .import of the same rows; `reuse` keeps them
// and reads databases already there instead of writing them)
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <string>

#include "analyzer/diff/diff.h"
#include "analyzer/summary_facts_sink.h"
#include "db/run_database.h"

namespace fs = std::filesystem;
using namespace flopscope;

namespace {

double seconds_since(std::chrono::steady_clock::time_point t) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
}

// A transformer-like run: `iterations` forward passes over `layers` blocks of `ops_per_layer` ops, each op
// launching one kernel. B drops one op per layer (a vanished submodule) and runs 3% slower.
RunData make(std::int64_t kernels, bool variant_b) {
  const int iterations = 10, ops_per_layer = 25;
  const std::int64_t layers = kernels / iterations / ops_per_layer;
  RunData run;
  run.info.source_path = variant_b ? "b.pt" : "a.pt";
  run.info.device = "bench";
  run.modules.push_back({0, kNoId, "", "Model"});
  for (std::int64_t l = 0; l < layers; ++l) {
    Id block = static_cast<Id>(run.modules.size());
    run.modules.push_back({block, 0, "layers." + std::to_string(l), "Block"});
    for (int s = 0; s < 5; ++s) {
      Id id = static_cast<Id>(run.modules.size());
      run.modules.push_back(
          {id, block, "layers." + std::to_string(l) + ".sub" + std::to_string(s), "Linear"});
    }
    ParamRecord p;
    p.id = l;
    p.name = "layers." + std::to_string(l) + ".sub0.weight";
    p.numel = 4096;
    p.bytes = 16384;
    p.max_abs = 1;
    p.nonzero_fraction = 1;
    p.sha256 = "x";
    run.params.push_back(p);
  }
  Id op_id = 0;
  for (int it = 0; it < iterations; ++it) {
    for (std::int64_t l = 0; l < layers; ++l) {
      Id block = 1 + l * 6;
      for (int k = 0; k < ops_per_layer; ++k) {
        if (variant_b && k == 0) continue;
        OpRecord op;
        op.id = op_id++;
        op.iteration = it;
        op.sequence = op.id;
        op.name = k % 3 == 0 ? "aten::linear" : k % 3 == 1 ? "aten::add" : "aten::gelu";
        op.module_id = block + 1 + k % 5;
        op.start_ns = op.id * 2000;
        op.duration_ns = 1500 + (op.id * 7919) % 300;
        op.args = {OpArg{true, "float32", {1, 128, 768}, ""}, OpArg{true, "float32", {768, 768}, ""}};
        op.flops = 2.0 * 128 * 768 * 768;
        op.bytes_read = 4.0 * (128 * 768 + 768 * 768);
        op.flops_source = FlopsSource::kFormula;
        KernelRecord kr;
        kr.id = op.id;
        kr.name = "sm90_xmma_gemm_f32f32_tn_n_" + std::to_string(k % 7);
        kr.start_ns = op.start_ns + 100;
        kr.duration_ns =
            static_cast<std::int64_t>((1000 + (op.id * 104729) % 200) * (variant_b ? 1.03 : 1.0));
        kr.iteration = it;
        kr.op_id = op.id;
        kr.module_id = op.module_id;
        kr.correlation = op.id;
        run.ops.push_back(std::move(op));
        run.kernels.push_back(std::move(kr));
      }
    }
  }
  return run;
}

}  // namespace

int main(int argc, char** argv) {
  fs::path dir = argc > 1 ? fs::path(argv[1]) : fs::temp_directory_path();
  std::int64_t kernels = argc > 2 ? std::atoll(argv[2]) : 1'000'000;
  if (argc > 3 && std::string(argv[3]) == "memory") {
    RunData a = make(kernels, false), b = make(kernels, true);
    auto t = std::chrono::steady_clock::now();
    RunSummary sa = summarize(a), sb = summarize(b);
    double summarize_s = seconds_since(t);
    auto t2 = std::chrono::steady_clock::now();
    std::clock_t c2 = std::clock();
    RunDiff d = diff_runs(a, sa, b, sb);
    double diff_s = seconds_since(t2), diff_cpu = static_cast<double>(std::clock() - c2) / CLOCKS_PER_SEC;
    std::printf(
        "in memory: summarize both %.2f s, diff %.2f s (CPU %.2f s), %zu modules, %zu op signatures\n",
        summarize_s, diff_s, diff_cpu, d.modules.size(), d.ops.size());
    return 0;
  }
  std::string a_path = (dir / "bench_diff_a.db").string(), b_path = (dir / "bench_diff_b.db").string();
  if (argc > 3 && std::string(argv[3]) == "write") {
    RunData run = make(kernels, false);
    // As every capture path does: the summary facts (schema 010) are derived (on a second thread) and
    // stored with the rows. Their CPU time alone, measured apart on this thread first:
    const std::clock_t cf = std::clock();
    (void)summary_facts(run);
    const double facts_cpu = static_cast<double>(std::clock() - cf) / CLOCKS_PER_SEC;
    const std::clock_t c = std::clock();
    auto t = std::chrono::steady_clock::now();
    auto sink = create_run_database(a_path, true);
    if (!sink.ok() || !write_run_with_facts(**sink, run).ok()) {
      std::fprintf(stderr, "cannot write %s\n", a_path.c_str());
      return 2;
    }
    const double wall = seconds_since(t), cpu = static_cast<double>(std::clock() - c) / CLOCKS_PER_SEC;
    const auto n = static_cast<long long>(run.ops.size() + run.kernels.size());
    std::printf(
        "write: %lld rows in %.3f s wall, %.3f s CPU (%.0f rows/s wall, %.0f rows/s CPU); the summary "
        "facts in that alone: %.3f s CPU\n",
        n, wall, cpu, static_cast<double>(n) / wall, static_cast<double>(n) / cpu, facts_cpu);
    return 0;
  }
  const std::string mode = argc > 3 ? argv[3] : "";
  for (auto [path, b] : {std::pair{a_path, false}, std::pair{b_path, true}}) {
    if (mode == "reuse" && fs::exists(path)) continue;
    auto t = std::chrono::steady_clock::now();
    RunData run = make(kernels, b);
    auto sink = create_run_database(path, true);
    if (!sink.ok() || !write_run_with_facts(**sink, run).ok()) {
      std::fprintf(stderr, "cannot write %s\n", path.c_str());
      return 2;
    }
    std::printf("wrote %s: %zu ops, %zu kernels, %zu modules (%.2f s, not timed)\n", path.c_str(),
                run.ops.size(), run.kernels.size(), run.modules.size(), seconds_since(t));
  }
  // What `flopscope diff` does (the aggregates, schema 007), and the same from the op and kernel rows (as
  // before it), interleaved: aggregates, rows, aggregates.
  double best_wall = 1e9, best_cpu = 1e9;
  for (bool raw_rows : {false, true, false}) {
    const std::clock_t c0 = std::clock();
    auto t0 = std::chrono::steady_clock::now();
    auto a = read_run_database(a_path, {.raw_rows = raw_rows});
    double read_a = seconds_since(t0);
    auto t1 = std::chrono::steady_clock::now();
    auto b = read_run_database(b_path, {.raw_rows = raw_rows});
    double read_b = seconds_since(t1);
    if (!a.ok() || !b.ok()) {
      std::fprintf(stderr, "read failed\n");
      return 2;
    }
    auto t2 = std::chrono::steady_clock::now();
    RunSummary sa = summarize(*a), sb = summarize(*b);
    double summarize_s = seconds_since(t2);
    auto t3 = std::chrono::steady_clock::now();
    RunDiff d = diff_runs(*a, sa, *b, sb);
    double diff_s = seconds_since(t3);
    double total = seconds_since(t0), cpu = static_cast<double>(std::clock() - c0) / CLOCKS_PER_SEC;
    std::printf(
        "%s: read A %.2f s, read B %.2f s, summarize both %.2f s, diff %.2f s; %.2f s wall, %.2f s CPU\n",
        raw_rows ? "rows      " : "aggregates", read_a, read_b, summarize_s, diff_s, total, cpu);
    if (!raw_rows) {
      best_wall = std::min(best_wall, total);
      best_cpu = std::min(best_cpu, cpu);
    } else {
      std::printf("modules: %s; op signatures: %zu\n", verdict_counts_text(d).c_str(), d.ops.size());
    }
  }
  std::printf(
      "END TO END (aggregates, best of 2): %.2f s wall, %.2f s CPU for 2 x %lld kernels (target < 1 s): %s\n",
      best_wall, best_cpu, static_cast<long long>(kernels), best_wall < 1 ? "PASS" : "FAIL");
  const double total = best_wall;
  if (mode != "keep" && mode != "reuse") {
    fs::remove(a_path);
    fs::remove(b_path);
  }
  return total < 1 ? 0 : 1;
}
