// Elimination candidates: modules that, on the recorded requests, behave as zero (their output is tiny) or
// as identity (their output barely differs from their input), with what they cost and what removing them
// would save. Needs a run recorded with `profile --activations`.
#pragma once

#include <string>
#include <vector>

#include "analyzer/activations/discarded.h"
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

enum class CandidateKind { kZeroLike, kIdentityLike };
const char* to_string(CandidateKind kind);

struct InputSetVerdict {
  std::string tag;  // "" for random inputs
  int calls = 0;
  int held = 0;
};

struct Candidate {
  std::string path;
  std::string type;
  CandidateKind kind = CandidateKind::kZeroLike;
  int calls = 0;
  int held = 0;
  double share_held = 0;
  double median_out_rms = 0;
  double max_out_rms = 0;
  double median_rel_change = 0;  // identity-like only
  std::vector<InputSetVerdict> by_input_set;
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
};

struct CandidateReport {
  bool has_activations = false;  // false: the run was recorded without --activations
  CandidateOptions options;
  std::vector<Candidate> candidates;  // by time share, largest first; descendants of a listed module omitted
  // Work computed then multiplied by zero (an all-zero parameter or constant), by FLOPs, largest first.
  std::vector<DiscardCandidate> discarded;
  std::vector<std::string> input_sets;
};

CandidateReport find_candidates(const RunData& run, const RunSummary& summary,
                                const CandidateOptions& options = {});

}  // namespace flopscope
