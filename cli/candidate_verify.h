// `report --candidates --verify`: each candidate's claim checked against the model's outputs. The run's model
// is ablated once per candidate (zero-like and never-run: zeros; identity-like: its input) on the inputs the
// run was profiled with, and the outputs compared with the unedited model's (collector/torch/ablation.h).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "analyzer/activations/candidates.h"
#include "collector/torch/ablation.h"
#include "db/model/run_data.h"
#include "db/model/status.h"

namespace flopscope::cli {

enum class VerifyStatus { kVerified, kRefuted, kNotVerified };
const char* to_string(VerifyStatus s);

struct CandidateVerification {
  std::string path;
  AblationMode mode = AblationMode::kZero;
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

// The whole check fails (one error) when the run cannot be re-run: not profiled from a TorchScript model, the
// model missing or changed since, or profiled on request files, which the run does not keep. A candidate
// whose own ablation fails (identity on a module whose output is shaped unlike its input) is "not verified".
StatusOr<CandidateVerifications> verify_candidates(const RunData& run, const CandidateReport& report,
                                                   double tolerance);

}  // namespace flopscope::cli
