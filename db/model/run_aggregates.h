// Per-module and per-op-signature totals of a run, with per-iteration host and device time, computed once
// from the op and kernel rows when a run is written (schema 007). Analyses that need nothing else (diff)
// read these few thousand rows instead of the million raw ones. Plain structs, no SQLite.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "db/model/measured_counters.h"
#include "db/model/records.h"

namespace flopscope {

// Nanoseconds per iteration: (iteration number as stored, sum), ascending, zero sums left out.
using IterationTimes = std::vector<std::pair<int, std::int64_t>>;

// One module's own ops and kernels (not its children's), whole run.
struct ModuleAggregate {
  Id module_id = kNoId;               // as the rows name it (kNoId: none)
  std::int64_t ops = 0;               // every op, nested ones too
  std::int64_t ops_with_formula = 0;  // FLOPs source other than none
  // Ops counted toward totals (counts_toward_totals), summed in row order:
  double flops = 0, macs = 0, bytes_read = 0, bytes_written = 0;
  std::int64_t kernels = 0;         // kernels in an iteration
  std::int64_t orphan_kernels = 0;  // kernels outside every iteration (negative iteration)
  std::int64_t orphan_ns = 0;
  MeasuredCounters measured{};  // of kernels in iterations
  IterationTimes host_ns{};     // outermost ops (no parent op): their durations
  IterationTimes device_ns{};   // kernels in iterations: their durations
};

// One (module, op name, argument signature), whole run: the identity `diff` matches ops by.
struct OpAggregate {
  Id module_id = kNoId;
  std::string name;         // the op's name; "kernel NAME" for kernels no known op launched
  std::string signature{};  // signature_of(args); "" for those kernels
  std::int64_t calls = 0;
  bool counted = false;         // some op here has a FLOPs source other than none
  double flops = 0, bytes = 0;  // ops counted toward totals; bytes read + written
  double nested_flops = 0;      // ops inside a counted op (flops_source nested): shown, never in totals
  std::int64_t kernels = 0;     // kernels launched by these ops, orphans too
  IterationTimes host_ns{};     // every op's duration (nested ones too)
  IterationTimes device_ns{};   // kernels in iterations
};

struct RunAggregates {
  bool present = false;         // false: none were stored or computed (the raw rows are the only source)
  std::vector<int> iterations;  // iteration numbers present: of every op, and of kernels >= 0; ascending
  std::vector<ModuleAggregate> modules;  // first-seen order
  std::vector<OpAggregate> ops;          // first-seen order
};

// Accumulates aggregates from rows in the order a writer sees them. A kernel whose op has not been seen
// yet waits until finish().
class AggregateBuilder {
 public:
  AggregateBuilder();
  ~AggregateBuilder();
  AggregateBuilder(const AggregateBuilder&) = delete;
  AggregateBuilder& operator=(const AggregateBuilder&) = delete;
  void add_ops(std::span<const OpRecord> ops);
  void add_kernels(std::span<const KernelRecord> kernels);
  RunAggregates finish();

 private:
  struct State;
  std::unique_ptr<State> s_;
};

RunAggregates aggregate_rows(std::span<const OpRecord> ops, std::span<const KernelRecord> kernels);

}  // namespace flopscope
