// Diff of two runs of model versions, matched by stable identity: module path (after optional path
// normalisation) and op signature (name + argument shapes), never ids or order. Joins compute with
// weights: a module whose ops vanished and whose parameters are gone is VANISHED with weights ERASED; one
// whose parameters are all zero while its ops still run is DORMANT.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "analyzer/latency.h"
#include "analyzer/summary.h"
#include "db/model/run_data.h"
#include "db/model/status.h"

namespace re2 {
class RE2;
}

namespace flopscope {

inline constexpr int kDiffJsonVersion = 1;

enum class DiffStatus { kVanished, kNew, kChanged, kUnchanged };
const char* to_string(DiffStatus s);

// What a module's parameters look like in one run. kNone: the module owns no parameters in that run.
enum class WeightState { kNone, kActive, kZeroed, kErased };
const char* to_string(WeightState s);

enum class Verdict { kVanished, kNew, kDormant, kChanged, kUnchanged };
const char* to_string(Verdict v);

// A path rewrite applied to module paths and parameter names of both runs: 'model.layers.(\d+)=layers.$1'.
// One --map rule, run by RE2 (linear time, no recursion): `replacement` is already in RE2's rewrite syntax.
struct PathMap {
  std::string text;
  std::shared_ptr<const re2::RE2> pattern;
  std::string replacement;
};
StatusOr<PathMap> parse_path_map(const std::string& spec);
std::string apply_path_maps(const std::vector<PathMap>& maps, const std::string& path);

struct DiffOptions {
  std::vector<PathMap> maps;
  double atol = 0;                 // parameters with max |x| <= atol count as zero
  double min_time_change = 0.02;   // a significant time change smaller than this (relative) is not CHANGED
  double cost_tolerance = 1e-9;    // relative tolerance on FLOPs and bytes
  int bootstrap_resamples = 2000;
};

// Costs of one module or op signature in one run, per iteration.
struct SideCost {
  bool present = false;
  double ops = 0;
  double kernels = 0;
  double flops = 0;
  double bytes = 0;
  bool flops_known = true;  // false: no op of this row has a FLOPs count (no formula, no counter)
  LatencyStats time;  // per-iteration time (GPU time when both runs have kernels, host op time otherwise)
  double share_time = 0;   // of the run's iteration time P50
  double share_flops = 0;  // of the run's FLOPs
};

struct WeightSide {
  WeightState state = WeightState::kNone;
  std::int64_t params = 0;
  std::int64_t numel = 0;
  std::int64_t bytes = 0;
  std::int64_t zeroed = 0;  // parameters all |x| <= atol
  std::int64_t erased = 0;  // placeholders (no elements)
};

struct ModuleDiff {
  std::string path;  // normalised; "" for the root
  std::string type;    // in A (in B when only there)
  std::string type_b;  // in B, "" when absent
  int depth = 0;
  DiffStatus status = DiffStatus::kUnchanged;
  SideCost a, b;
  MedianDifference time_diff;
  bool time_significant = false;  // significant and at least min_time_change
  WeightSide weights_a, weights_b;
  bool weights_changed = false;  // some parameter's content hash differs
  Verdict verdict = Verdict::kUnchanged;  // printers word it, e.g. "VANISHED: no ops in B (A: 64 ops, ...); weights ERASED"
  bool headline = false;     // VANISHED/NEW/DORMANT whose parent has another verdict: the change's root
};

struct OpDiff {
  std::string module_path;
  std::string name;
  std::string signature;
  DiffStatus status = DiffStatus::kUnchanged;
  SideCost a, b;
  MedianDifference time_diff;
  bool time_significant = false;
};

// One parameter joined by (normalised) name.
struct ParamDiff {
  std::string name;
  WeightState state_a = WeightState::kNone;  // kNone: absent from that run
  WeightState state_b = WeightState::kNone;
  std::int64_t bytes_a = 0, bytes_b = 0;
  bool changed = false;  // content hash, dtype or shape differs (or present on one side only)
};

struct RunTotals {
  double ops = 0, kernels = 0, flops = 0, bytes = 0;
  LatencyStats time;
  int iterations = 0;
  std::int64_t params = 0;
  std::int64_t param_bytes = 0;
};

struct RunDiff {
  RunInfo info_a, info_b;
  bool gpu_time = false;  // times are device (kernel) times
  RunTotals a, b;
  MedianDifference time_diff;
  bool time_significant = false;
  std::vector<ModuleDiff> modules;  // A's pre-order, then modules only in B in B's pre-order
  std::vector<OpDiff> ops;          // changed first, by |time delta|
  std::vector<ParamDiff> params;    // A's order, then parameters only in B
  std::vector<std::string> warnings;
  std::int64_t common_modules = 0;  // excluding the root
  // Counts by status.
  int modules_by_status[4] = {0, 0, 0, 0};
  int ops_by_status[4] = {0, 0, 0, 0};
};

RunDiff diff_runs(const RunData& a, const RunData& b, const DiffOptions& options = {});

// The same from summaries already computed (the GUI holds them).
RunDiff diff_runs(const RunData& a, const RunSummary& sa, const RunData& b, const RunSummary& sb,
                  const DiffOptions& options = {});

}  // namespace flopscope
