// A candidate's claim checked against the model's outputs (`report --candidates --verify`): the run's model
// is ablated once per candidate (zero-like and never-run: zeros; identity-like: its input) on the inputs
// the run was profiled with, and the outputs compared with the unedited model's. The verdicts are decided
// here; the ablation itself is run by a front end's runner (the CLI's calls collector/torch/ablation through
// the plugin), passed in so that the analyzer never links LibTorch.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "analyzer/activations/candidates.h"
#include "db/model/output_records.h"
#include "db/model/status.h"

namespace flopscope {

enum class VerifyStatus { kVerified, kRefuted, kNotVerified };
const char* to_string(VerifyStatus s);

// How a candidate's module is replaced to test its claim.
enum class CandidateReplacement {
  kZeros,  // zero-like and never-run candidates: zeros of the output's shape
  kInput,  // identity-like candidates: the module's first input
};
// "zero" / "identity", as `flopscope ablate --module PATH=zero` names them.
const char* to_string(CandidateReplacement r);
CandidateReplacement replacement_for(const Candidate& c);

// What a runner reports for one candidate's module replaced in the run's model.
struct CandidateAblation {
  int call_sites = 0;                  // calls of the module the replacement took over
  std::vector<OutputRecord> original;  // per request: what the unedited model returned
  std::vector<OutputRecord> ablated;   // the same requests with the module replaced
};
// Runs one ablation; an error when it cannot (e.g. identity on a module whose output is shaped unlike its
// input): that candidate is then "not verified".
using CandidateAblator =
    std::function<StatusOr<CandidateAblation>(const std::string& module_path, CandidateReplacement how)>;

struct CandidateVerification {
  std::string path;
  CandidateReplacement mode = CandidateReplacement::kZeros;
  VerifyStatus status = VerifyStatus::kNotVerified;
  std::optional<double> max_rel_change;  // the largest relative output change, when compared
  int call_sites = 0;                    // calls of the module the ablation replaced
  // "verified: outputs change <= 1e-05 (2.1e-08)", "refuted: changes outputs by 0.31", "not verified: ...".
  std::string text;
};

struct CandidateVerifications {
  double tolerance = 1e-5;
  std::string model_path;
  std::string inputs;                        // as the run stored them
  std::vector<CandidateVerification> items;  // in the order of CandidateReport::candidates
  // The verification of a candidate, or nullptr.
  const CandidateVerification* find(const std::string& path) const;
};

// The verdict on one candidate from its ablation (or the error that stopped it).
CandidateVerification judge_candidate(const Candidate& c, const StatusOr<CandidateAblation>& ablation,
                                      double tolerance);

// Every candidate of the report ablated by `ablate`, one at a time, and judged. model_path and inputs name
// what was re-run, for the report's header.
CandidateVerifications verify_candidates(const CandidateReport& report, const CandidateAblator& ablate,
                                         double tolerance, std::string model_path, std::string inputs);

}  // namespace flopscope
