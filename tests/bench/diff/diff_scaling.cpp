// Growth of `diff` in the number of vanished modules (issue #32): A has N blocks of two modules, each with
// its own op and weight; B keeps the root and one block. Runs are made in memory (no files), summarized
// once, then diff_runs is timed at N, 2N, 4N and 8N. Linear work doubles per doubling (factor 2.0); the
// target is a factor <= 2.3 for each step. Exit 1 when one step grows faster.
//
// Times are CPU seconds of the process (every thread; the diff runs three), which other processes on a
// shared machine disturb far less than wall time (printed beside it). A bigger working set also costs more
// per element once it outgrows the caches: on a 2-core machine shared with compilers, a plain hash map of
// the same module paths grows 2.6-3.6 per doubling at these sizes. So each size also times that reference
// (insert every module path of A, look each up five times: linear by construction), and the growth judged
// is the diff's growth over the reference's, times 2 (`adjusted`); the raw growth is printed too.
//
// Usage: diff_scaling [N] [STEPS]   (N defaults to 10000, STEPS, the sizes N, 2N, ..., to 4)
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <string>
#include <unordered_map>

#include "analyzer/analysis/run_analysis.h"
#include "analyzer/diff/diff.h"

using namespace flopscope;

namespace {

constexpr double kTargetGrowth = 2.3;
constexpr int kIterations = 3;

// A model of `blocks` blocks `blocks.I` (type Block) each holding `blocks.I.proj` (Linear, one weight),
// every module running one op per iteration.
RunData make_run(int blocks, const char* source) {
  RunData run;
  run.info.source_path = source;
  run.info.device = "bench";
  run.modules.push_back({0, kNoId, "", "Model"});
  Id op_id = 0;
  for (int i = 0; i < blocks; ++i) {
    const Id block = static_cast<Id>(run.modules.size());
    const std::string path = "blocks." + std::to_string(i);
    run.modules.push_back({block, 0, path, "Block"});
    run.modules.push_back({block + 1, block, path + ".proj", "Linear"});
    ParamRecord p;
    p.id = i;
    p.name = path + ".proj.weight";
    p.module_id = block + 1;
    p.dtype = "float32";
    p.shape = {16, 16};
    p.numel = 256;
    p.bytes = 1024;
    p.max_abs = 1;
    p.nonzero_fraction = 1;
    p.sha256 = "w" + std::to_string(i);  // each weight its own content: none moves to B
    run.params.push_back(std::move(p));
  }
  for (int it = 0; it < kIterations; ++it) {
    for (Id m = 1; m < static_cast<Id>(run.modules.size()); ++m) {
      OpRecord op;
      op.id = op_id++;
      op.iteration = it;
      op.sequence = op.id;
      op.name = m % 2 == 0 ? "aten::linear" : "aten::add";
      op.module_id = m;
      op.start_ns = op.id * 1000;
      op.duration_ns = 500 + (op.id * 7919) % 100;
      op.args = {OpArg{true, "float32", {16, 16}, ""}};
      op.flops = 4096;
      op.bytes_read = 1024;
      op.flops_source = FlopsSource::kFormula;
      run.ops.push_back(std::move(op));
    }
  }
  return run;
}

double cpu_seconds_since(std::clock_t c) {
  return static_cast<double>(std::clock() - c) / CLOCKS_PER_SEC;
}

// The linear reference at the same size: A's module paths in a hash map, each looked up five times.
double reference_seconds(const RunData& a) {
  double best = 1e30;
  for (int rep = 0; rep < 3; ++rep) {
    const std::clock_t c = std::clock();
    std::unordered_map<std::string, std::size_t> index;
    for (std::size_t i = 0; i < a.modules.size(); ++i) index.emplace(a.modules[i].path, i);
    std::size_t sum = 0;
    for (int k = 0; k < 5; ++k) {
      for (const auto& m : a.modules) sum += index.find(m.path)->second;
    }
    best = std::min(best, cpu_seconds_since(c));
    if (sum == 0 && a.modules.size() > 1) std::abort();  // keeps the lookups
  }
  return best;
}

struct Timing {
  double cpu = 1e30, wall = 1e30;  // seconds, best of three
  double reference = 0;
  std::size_t rows = 0;
  int vanished = 0;
};

// The diff of A (N blocks) against B (one block).
Timing time_diff(int blocks) {
  const RunData a = make_run(blocks, "a.pt"), b = make_run(1, "b.pt");
  const RunSummary sa = summarize(a, totals_summary_options()), sb = summarize(b, totals_summary_options());
  Timing out;
  out.reference = reference_seconds(a);
  for (int rep = 0; rep < 3; ++rep) {
    const std::clock_t c = std::clock();
    const auto t = std::chrono::steady_clock::now();
    const RunDiff d = diff_runs(a, sa, b, sb);
    out.wall =
        std::min(out.wall, std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count());
    out.cpu = std::min(out.cpu, cpu_seconds_since(c));
    out.rows = d.modules.size();
    out.vanished = d.modules_by_verdict[static_cast<int>(Verdict::kVanished)];
  }
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  const int n = argc > 1 ? std::atoi(argv[1]) : 10000;
  const int steps = argc > 2 ? std::atoi(argv[2]) : 4;
  if (n < 1 || steps < 1 || steps > 12) {
    std::fprintf(stderr, "usage: diff_scaling [N >= 1] [STEPS 1..12]\n");
    return 2;
  }
  std::printf("%8s %8s %8s %8s %8s %8s %8s %8s %8s\n", "blocks", "rows", "vanished", "CPU s", "wall s",
              "ref s", "raw", "ref", "adjusted");
  Timing previous;
  double worst = 0;
  for (int k = 0; k < steps; ++k) {
    const int blocks = n << k;
    const Timing t = time_diff(blocks);
    std::printf("%8d %8zu %8d %8.3f %8.3f %8.4f ", blocks, t.rows, t.vanished, t.cpu, t.wall, t.reference);
    if (k > 0) {
      const double raw = t.cpu / previous.cpu, ref = t.reference / previous.reference;
      const double adjusted = 2 * raw / ref;
      worst = std::max(worst, adjusted);
      std::printf("%8.2f %8.2f %8.2f\n", raw, ref, adjusted);
    } else {
      std::printf("%8s %8s %8s\n", "-", "-", "-");
    }
    previous = t;
  }
  const bool pass = worst <= kTargetGrowth;
  std::printf("worst adjusted growth per doubling %.2f (linear 2.0, target <= %.1f): %s\n", worst,
              kTargetGrowth, pass ? "PASS" : "FAIL");
  return pass ? 0 : 1;
}
