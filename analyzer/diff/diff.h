// Diff of two runs of model versions, matched by stable identity: module path (after optional path
// normalisation) and op signature (name + argument shapes), never ids or order. Joins compute with
// weights: a module whose ops vanished and whose parameters are gone is VANISHED with weights ERASED; one
// whose parameters are all zero while its ops still run, or whose every op in B computes a result that is
// then multiplied by zero (dead compute, recorded with --activations), is DORMANT.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "analyzer/clock.h"
#include "analyzer/diff/correspondence.h"
#include "analyzer/diff/diff_status.h"
#include "analyzer/diff/summary_sentence.h"
#include "analyzer/latency.h"
#include "analyzer/op_category.h"
#include "analyzer/outputs/output_compare.h"
#include "analyzer/summary.h"
#include "analyzer/weights/tensor_similarity.h"
#include "db/model/run_data.h"
#include "db/model/status.h"

namespace re2 {
class RE2;
}

namespace flopscope {

inline constexpr int kDiffJsonVersion = 3;

// Time status, kept apart from structure: a change counts only when significant, at least
// min_time_change relative and min_time_change_ns absolute. kUntested: present on one side only, or a side
// has 2 iterations. kSingleSample: both sides timed, one of them in a single iteration (a trace of one
// forward pass): the difference is shown as measured, with no interval and no claim of significance.
// kNotAssessable: a side's iterations come from fewer than 3 processes, so no test can include the variance
// between runs (use `diff --rounds` or `trace --repeat`; analyzer/diff/between_runs.h).
enum class TimeStatus { kUntested, kUnchanged, kFaster, kSlower, kNotAssessable, kSingleSample };
const char* to_string(TimeStatus s);
// How every view words kSingleSample beside the difference.
inline constexpr const char* kSingleSampleText = "single sample, no interval";

// What a module's parameters look like in one run. kNone: the module owns no parameters in that run.
// kErased: gone, with no tensor of B holding their content; kMoved: gone from this module, but every one of
// them is in B under another name (exactly, or changed slightly: tensor_similarity.h).
enum class WeightState { kNone, kActive, kZeroed, kErased, kMoved };
const char* to_string(WeightState s);

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
  std::vector<PathMap> maps;            // both sides
  std::vector<PathMap> maps_a, maps_b;  // one side, after `maps`
  bool align_containers = true;         // match ModuleList/Sequential/ModuleDict children by structure
  double atol = 0;                      // parameters with max |x| <= atol count as zero
  double min_time_change = 0.05;     // a significant time change smaller than this (relative) does not count
  double min_time_change_ns = 1000;  // nor one smaller than this (absolute, per iteration)
  double cost_tolerance = 1e-9;      // relative tolerance on FLOPs and bytes
  int bootstrap_resamples = 2000;
};

// Costs of one module or op signature in one run, per iteration.
struct SideCost {
  bool present = false;
  double ops = 0;
  double kernels = 0;
  double flops = 0;
  double nested_flops = 0;  // of ops inside a counted op: their work is in that op's flops, so never summed
  double bytes = 0;
  bool flops_known = true;  // false: no op of this row has a FLOPs count (no formula, no counter)
  LatencyStats time;      // per-iteration time (GPU time when both runs have kernels, host op time otherwise)
  double share_time = 0;  // of the run's iteration time P50
  double share_flops = 0;  // of the run's FLOPs
};

struct WeightSide {
  WeightState state = WeightState::kNone;
  std::int64_t params = 0;
  std::int64_t numel = 0;
  std::int64_t bytes = 0;
  std::int64_t zeroed = 0;  // parameters all |x| <= atol
  std::int64_t erased = 0;  // placeholders (no elements)
  std::int64_t moved = 0;   // A's parameters of the module found in B under another name (joined sides only)
};

struct ModuleDiff {
  std::string path;    // normalised; "" for the root (A's path when MOVED)
  std::string path_b;  // B's normalised path when it differs (MOVED), else ""
  std::string type;    // in A (in B when only there)
  std::string type_b;  // in B, "" when absent
  int depth = 0;
  DiffStatus status = DiffStatus::kUnchanged;  // structural
  SideCost a, b;
  int summary_a = -1, summary_b = -1;  // indices into the RunSummary modules of A and B (-1: absent)
  MedianDifference time_diff;
  bool time_significant = false;  // significant and at least min_time_change and min_time_change_ns
  TimeStatus time_status = TimeStatus::kUntested;
  WeightSide weights_a, weights_b;
  bool weights_changed = false;  // some parameter's content hash differs
  // Every op the module runs in B is multiplied by zero afterwards (dead compute, recorded with
  // --activations): what is zero, e.g. "block.alpha"; "" when not.
  std::string discarded_by;
  // How the module was paired with B's (evidence and margin; absent for the root and one-sided rows), the
  // B module that holds an UNWRAPPED module's weights and work (or an A module whose WRAPPED B module holds
  // them), and for AMBIGUOUS the readings the evidence cannot choose between.
  std::optional<ModuleMatch> match;
  std::string moved_to;
  int ambiguous_group = -1;  // index into RunDiff::ambiguous_groups
  Verdict verdict = Verdict::kUnchanged;
  std::string verdict_text;  // e.g. "VANISHED: no ops in B (A: 64 ops, ...); weights ERASED" (every front end
                             // shows it)
  std::string time_text;     // e.g. "+1.2 ms (95% CI [+1.0 ms, +1.4 ms]), slower"; "" when untested
  bool headline = false;     // VANISHED/NEW/DORMANT whose parent has another verdict: the change's root
};

struct OpDiff {
  std::string module_path;
  std::string name;
  std::string signature;
  OpCategory category = OpCategory::kOther;  // op_category(name)
  bool orphan_kernels = false;  // "kernel NAME": kernels no known op launched (summed apart in reports)
  DiffStatus status = DiffStatus::kUnchanged;  // structural
  SideCost a, b;
  MedianDifference time_diff;
  bool time_significant = false;
  TimeStatus time_status = TimeStatus::kUntested;
};

// One parameter joined by (normalised) name.
struct ParamDiff {
  std::string name;
  WeightState state_a = WeightState::kNone;  // kNone: absent from that run
  WeightState state_b = WeightState::kNone;
  std::int64_t bytes_a = 0, bytes_b = 0;
  bool changed = false;  // content hash, dtype or shape differs (or present on one side only)
  // A's tensor absent by name from B but found there by content (or B's only-in-B tensor that is A's
  // content under another name): the other side's name, and whether the copy is exact or similar.
  std::string moved_to, moved_from;
  ContentRelation relation = ContentRelation::kNone;
  double similarity = 0;
};

struct RunTotals {
  double ops = 0, kernels = 0, flops = 0, bytes = 0;
  // Hardware-counter work per iteration (Nsight Compute, CUPTI counters): FLOPs (tensor FLOPs included where
  // the architecture converts) and DRAM bytes. Both 0 when no kernel was measured.
  double measured_flops = 0, dram_bytes = 0;
  bool measured() const { return measured_flops > 0 || dram_bytes > 0; }
  LatencyStats time;
  int iterations = 0;
  int processes = 1;  // processes the iterations came from (trace --repeat, diff --rounds)
  std::int64_t params = 0;
  std::int64_t param_bytes = 0;
};

// One op category (op_category.h) in A and B, per iteration, over every op-signature row of that category
// (kernels of no op by their own name). Time is the rows' mean per iteration on the diff's clock, shown only
// on device time (`timed`): nested host ops' times overlap, so host time does not add up by category. Shares
// are of the side's device time per iteration (mean): all kernel time, the sum over the categories.
struct CategoryDiff {
  OpCategory category = OpCategory::kOther;
  int signatures_a = 0, signatures_b = 0;
  double time_a = 0, time_b = 0;
  double flops_a = 0, flops_b = 0;
  double share_a = 0, share_b = 0;
};

struct CategorySummary {
  bool timed = false;              // device time on both sides: time and shares are meaningful
  double time_a = 0, time_b = 0;   // the shares' denominators: device time per iteration (mean)
  std::vector<CategoryDiff> rows;  // every category, in OpCategory order
  // Kernels no known op launched ("kernel NAME" rows): left out of the ranked op list, summed here.
  int orphan_signatures_a = 0, orphan_signatures_b = 0;
  double orphan_time_a = 0, orphan_time_b = 0;
};

struct RunDiff {
  RunInfo info_a, info_b;
  bool gpu_time = false;  // times are device (kernel) times
  RunTotals a, b;
  MedianDifference time_diff;
  bool time_significant = false;
  TimeStatus time_status = TimeStatus::kUntested;
  std::vector<ModuleDiff> modules;  // A's pre-order, then modules only in B in B's pre-order
  // By |time delta| (P50 B - P50 A, an absent side counting 0), largest first; rows with no time, FLOPs or
  // bytes on either side last (ranked_op below).
  std::vector<OpDiff> ops;
  CategorySummary categories;
  std::vector<ParamDiff> params;  // A's order, then parameters only in B
  std::vector<std::string> warnings;
  std::int64_t common_modules = 0;  // excluding the root
  // Modules whose ops could not be attributed exactly in A or B (data-quality error of the run), as paths
  // after the maps: a gate matching one of them cannot be evaluated.
  std::vector<std::string> ambiguous;
  // Modules whose correspondence the evidence does not decide (their verdict is AMBIGUOUS): a gate that
  // matches one of them exits 2 naming the readings and the --map that settles it.
  std::vector<AmbiguousGroup> ambiguous_groups;
  std::vector<std::string> maps;  // the --map texts applied (A and B), recorded in every report
  // Counts: modules by their one status (the verdict), op signatures by structural status, and time.
  int modules_by_verdict[kVerdictCount] = {0, 0, 0, 0, 0, 0};
  int ops_by_status[4] = {0, 0, 0, 0};
  int modules_slower = 0, modules_faster = 0;
  // What vanished / went dormant / appeared and what it saves or costs: the first line of every view.
  SummarySentence sentence;
  // What forward() returned in A and B on the same inputs (runs profiled here, or stored with
  // --save-outputs): the line under the verdicts (output_line) and the output gates.
  OutputComparison outputs;
};

// The clock of a diff's times (device when both runs have kernels); views label their time columns by it.
inline Clock time_clock(const RunDiff& d) {
  return d.gpu_time ? Clock::kDevice : Clock::kHost;
}

// An op row the ranked op list shows: not a row of orphan kernels, and some time, FLOPs or bytes on a side.
bool ranked_op(const OpDiff& o);

// "VANISHED: no ops in B (A: 64 ops, ...); weights ERASED": the wording every front end shows.
std::string describe_verdict(const ModuleDiff& m);
// "-0.91 ms (95% CI [-0.95 ms, -0.88 ms]), faster", "+1.2 us (not tested)", "no change",
// "+822 ms (not assessable across processes (use --rounds / trace --repeat))".
std::string describe_time_change(const MedianDifference& t, bool significant);
// The same with the row's status: "+81.3 µs (single sample, no interval)" for kSingleSample.
std::string describe_time_change(const MedianDifference& t, bool significant, TimeStatus status);
// How module PATH (A's path, or B's own) was paired: evidence, score, runner-up, moved tensors (--explain).
StatusOr<std::string> explain_module(const RunDiff& d, const std::string& path);
// "2 VANISHED, 1 DORMANT, 54 UNCHANGED" (none: "none").
std::string verdict_counts_text(const RunDiff& d);

RunDiff diff_runs(const RunData& a, const RunData& b, const DiffOptions& options = {});

// The same from summaries already computed (the GUI holds them).
RunDiff diff_runs(const RunData& a, const RunSummary& sa, const RunData& b, const RunSummary& sb,
                  const DiffOptions& options = {});

}  // namespace flopscope
