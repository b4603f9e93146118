#include "analyzer/activations/candidate_verify.h"

#include <fmt/format.h>

#include "analyzer/outputs/output_compare.h"

namespace flopscope {
namespace {

std::string number(double v) {
  return fmt::format("{:.2g}", v);
}

}  // namespace

const char* to_string(VerifyStatus s) {
  switch (s) {
    case VerifyStatus::kVerified:
      return "verified";
    case VerifyStatus::kRefuted:
      return "refuted";
    case VerifyStatus::kNotVerified:
      break;
  }
  return "not_verified";
}

const char* to_string(CandidateReplacement r) {
  return r == CandidateReplacement::kZeros ? "zero" : "identity";
}

CandidateReplacement replacement_for(const Candidate& c) {
  return c.kind == CandidateKind::kIdentityLike ? CandidateReplacement::kInput : CandidateReplacement::kZeros;
}

const CandidateVerification* CandidateVerifications::find(const std::string& path) const {
  for (const auto& v : items)
    if (v.path == path) return &v;
  return nullptr;
}

CandidateVerification judge_candidate(const Candidate& c, const StatusOr<CandidateAblation>& ablation,
                                      double tolerance) {
  CandidateVerification v;
  v.path = c.path;
  v.mode = replacement_for(c);
  if (!ablation.ok()) {  // e.g. identity on a module whose output is shaped unlike its input
    v.text = "not verified: " + ablation.status().message();
    return v;
  }
  v.call_sites = ablation->call_sites;
  const OutputComparison cmp = compare_outputs(ablation->original, ablation->ablated);
  v.max_rel_change = cmp.max_rel_change;
  if (v.call_sites == 0 && c.kind != CandidateKind::kNeverRun) {
    // It runs, yet no call of it was found to replace: an unchanged output proves nothing.
    v.text = "not verified: no call of its forward() found in the model's forward() to replace";
  } else if (cmp.status != OutputsStatus::kCompared) {
    v.text = "not verified: " + cmp.reason;
  } else if (cmp.non_finite) {
    v.status = VerifyStatus::kRefuted;
    v.text = "refuted: outputs hold NaN or Inf with it ablated";
  } else if (!cmp.max_rel_change) {
    v.text = "not verified: only summaries of the outputs were kept";
  } else if (*cmp.max_rel_change <= tolerance) {
    v.status = VerifyStatus::kVerified;
    v.text = "verified: outputs change <= " + number(tolerance) + " (" + number(*cmp.max_rel_change) + ")";
  } else {
    v.status = VerifyStatus::kRefuted;
    v.text = "refuted: changes outputs by " + number(*cmp.max_rel_change);
  }
  return v;
}

CandidateVerifications verify_candidates(const CandidateReport& report, const CandidateAblator& ablate,
                                         double tolerance, std::string model_path, std::string inputs) {
  CandidateVerifications out;
  out.tolerance = tolerance;
  out.model_path = std::move(model_path);
  out.inputs = std::move(inputs);
  for (const auto& c : report.candidates)
    out.items.push_back(judge_candidate(c, ablate(c.path, replacement_for(c)), tolerance));
  return out;
}

}  // namespace flopscope
