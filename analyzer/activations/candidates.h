// Elimination candidates: modules that, on the recorded requests, behave as zero (their output is tiny) or
// as identity (their output barely differs from their input), with what they cost and what removing them
// would save (needs a run recorded with `--activations`), and modules with parameters that never run. Each
// input set of the run is judged apart: a module one set needs is never called free to remove.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "analyzer/activations/discarded.h"
#include "analyzer/activations/weights_read.h"
#include "analyzer/summary.h"
#include "db/model/run_data.h"

namespace flopscope {

struct CandidateOptions {
  // A call behaves as zero when the RMS of its output (L2 / sqrt(numel)) is below this.
  double zero_threshold = 1e-5;
  // A call behaves as identity when ||y - x|| / ||x|| is below this (output shaped like the input).
  double identity_threshold = 1e-3;
  // A module is listed when the behaviour held in at least this share of its calls.
  double min_share_of_calls = 0.9;
  // Parameters with max |x| below this are reported as tiny.
  double tiny_weight = 1e-4;
};

enum class CandidateKind { kZeroLike, kIdentityLike, kNeverRun };
const char* to_string(CandidateKind kind);

// What one input set says of a candidate.
struct InputSetVerdict {
  std::string tag;      // "" for random inputs
  int calls = 0;        // calls with activation statistics on this set's requests
  int held = 0;         // of them, those where the behaviour held
  bool runs = true;     // false: the module ran no op on this set (0 calls in the module tree)
  bool needed = false;  // it runs here and does not behave as zero / identity: removing it changes results
  // The module's inclusive cost per iteration of this set: what removing it saves here.
  double flops = 0;
  double bytes = 0;
  double time_p50_ns = 0;
};

struct Candidate {
  std::string path;
  std::string type;
  CandidateKind kind = CandidateKind::kZeroLike;
  // Calls are the module tree's (contiguous spans of the module's ops): a module that runs no op, such as
  // nn.Identity or a container, has none, whatever hooks saw it called.
  int calls = 0;
  int held = 0;
  double share_held = 0;
  double median_out_rms = 0;
  double max_out_rms = 0;
  double median_rel_change = 0;  // identity-like only
  // One per input set of the run (empty when the sets are unknown: no activation statistics).
  std::vector<InputSetVerdict> by_input_set;
  // Parameter and buffer tensors of the module's subtree, their values and bytes.
  int params = 0;
  std::int64_t param_values = 0;
  double param_bytes = 0;
  // Weight status of the module's own parameters and its descendants': "none", "ZEROED", "tiny", "ACTIVE".
  std::string weight_status;
  double weight_max_abs = 0;
  // What the module costs per iteration (inclusive), i.e. what removing it would save, and its shares.
  double flops = 0;
  double bytes = 0;
  double time_p50_ns = 0;
  double share_flops = 0;
  double share_bytes = 0;
  double share_time = 0;

  // Some input set needs the module: what removing it saves holds for the other sets only.
  bool conditional() const;
};

// A module with parameters that runs no op, yet is no never-run candidate: an op of another module takes a
// tensor like one of its parameters, so the model may read its weights directly.
struct HeldBackModule {
  std::string path;
  std::string type;
  WeightRead read;
};

struct CandidateReport {
  bool has_activations = false;  // false: the run was recorded without --activations (never-run still found)
  CandidateOptions options;
  // Zero-like and identity-like by time share, largest first, then never-run by parameter bytes; descendants
  // of a module listed for the same reason on the same sets omitted, and a container (ModuleDict, ModuleList,
  // Sequential) never listed for what a child of it computes.
  std::vector<Candidate> candidates;
  // Work computed then multiplied by zero (an all-zero parameter or constant), by FLOPs, largest first.
  std::vector<DiscardCandidate> discarded;
  std::vector<HeldBackModule> held_back;
  std::vector<std::string> input_sets;  // the run's input-set tags (from its activation statistics), sorted
};

CandidateReport find_candidates(const RunData& run, const RunSummary& summary,
                                const CandidateOptions& options = {});

}  // namespace flopscope
