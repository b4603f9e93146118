// Internal to analyzer/: what the two ways of summarizing a run share. summarize() walks the op and kernel
// rows; summarize_aggregates() reads the per-module aggregates stored with the run (schema 007). Both
// build the same module tree and roll per-module values up it the same way.
#pragma once

#include <span>
#include <unordered_map>
#include <vector>

#include "analyzer/summary.h"
#include "db/model/measured_counters.h"

namespace flopscope {

// Per-module values before the roll-up, indexed like RunSummary::modules.
struct ModuleAccumulators {
  ModuleAccumulators(std::size_t modules, std::size_t iterations)
      : self_time(modules, IterationSeries(iterations)),
        gpu_time(modules, IterationSeries(iterations)),
        calls(modules, 0.0),
        comm(modules, 0.0),
        unknown_gpu(modules, 0.0),
        unknown_host(modules, 0.0),
        gap_in_module(modules, 0) {}
  std::vector<IterationSeries> self_time, gpu_time;  // host time of outermost ops; kernel time
  std::vector<double> calls, comm, unknown_gpu, unknown_host;
  std::vector<char> gap_in_module;
};

// Adds a module's summed counters (MeasuredCounters, the one owner of those sums) to its cost. Tensor FLOPs
// are the instruction sum times the run's factor: the factors are 0 or powers of two, so this equals the
// per-kernel products summed.
void add_measured(Cost& c, const MeasuredCounters& m, double tensor_factor);

// The pre-order module list; modules unreachable from the root hang under it. index_of: module id -> index.
std::vector<ModuleSummary> build_module_tree(std::span<const ModuleRecord> modules,
                                             std::unordered_map<Id, int>& index_of);

// Inclusive costs and times, per-iteration means, shares, totals and the roofline, from the modules' self
// costs (already in s.modules) and `acc`. Needs s.iterations and s.has_kernels set.
void roll_up_modules(RunSummary& s, ModuleAccumulators acc, const RunData& run,
                     const SummaryOptions& options);

}  // namespace flopscope
