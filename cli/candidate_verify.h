// `report --candidates --verify`: the core judges each candidate (analyzer/activations/candidate_verify.h);
// this is the runner it is given: the run's TorchScript model ablated through the plugin
// (collector/torch/ablation.h) on the inputs the run was profiled with.
#pragma once

#include "analyzer/activations/candidate_verify.h"
#include "analyzer/activations/candidates.h"
#include "db/model/run_data.h"
#include "db/model/status.h"

namespace flopscope::cli {

// The whole check fails (one error) when the run cannot be re-run: not profiled from a TorchScript model, the
// model missing or changed since, or profiled on request files, which the run does not keep. A candidate
// whose own ablation fails (identity on a module whose output is shaped unlike its input) is "not verified".
StatusOr<CandidateVerifications> verify_candidates(const RunData& run, const CandidateReport& report,
                                                   double tolerance);

}  // namespace flopscope::cli
