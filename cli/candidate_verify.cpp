#include "cli/candidate_verify.h"

#include <fmt/format.h>

#include <cstdlib>

#include "analyzer/outputs/output_compare.h"
#include "collector/torch/profile_model.h"
#include "db/model/progress.h"
#include "db/model/sha256.h"

namespace flopscope::cli {
namespace {

// The inputs the run was profiled with: its specs ("int64[1,64]@0:512; float32[1,8]") and seed (stored in
// its command line as "--seed N"; 0 when absent, as profile's default).
Status run_inputs(const RunData& run, AblationOptions& o) {
  const RunInfo& info = run.info;
  if (info.source_kind != SourceKind::kTorchCpu || !is_torchscript_model(info.source_path)) {
    return InvalidArgument(
        (info.source_path.empty() ? std::string("the run") : info.source_path) +
        ": --verify re-runs the run's model, and this run was not profiled from a TorchScript "
        "model (ablate an eager program with `flopscope trace --ablate`)");
  }
  if (info.input_spec.ends_with("request file(s)")) {
    return Unsupported(
        info.source_path +
        ": --verify cannot re-run this run yet: it was profiled on request files, which the run "
        "does not keep; ablate with `flopscope ablate MODEL --inputs DIR --module PATH=zero`");
  }
  FS_ASSIGN_OR_RETURN(std::string sha, sha256_file(info.source_path));
  if (!info.source_sha256.empty() && sha != info.source_sha256) {
    return InvalidArgument(info.source_path +
                           ": changed since the run was profiled: --verify would test another model");
  }
  std::vector<std::string> texts;
  for (std::size_t start = 0; start < info.input_spec.size();) {
    const auto end = info.input_spec.find("; ", start);
    texts.push_back(
        info.input_spec.substr(start, end == std::string::npos ? std::string::npos : end - start));
    start = end == std::string::npos ? info.input_spec.size() : end + 2;
  }
  FS_ASSIGN_OR_RETURN(o.inputs, parse_input_specs(texts));
  if (const auto at = info.command_line.find(" --seed "); at != std::string::npos) {
    o.seed = std::strtoull(info.command_line.c_str() + at + 8, nullptr, 10);
  }
  o.model_path = info.source_path;
  o.threads = info.threads;
  return Status::Ok();
}

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

const CandidateVerification* CandidateVerifications::find(const std::string& path) const {
  for (const auto& v : items)
    if (v.path == path) return &v;
  return nullptr;
}

StatusOr<CandidateVerifications> verify_candidates(const RunData& run, const CandidateReport& report,
                                                   double tolerance) {
  AblationOptions options;
  FS_RETURN_IF_ERROR(run_inputs(run, options));
  CandidateVerifications out;
  out.tolerance = tolerance;
  out.model_path = options.model_path;
  out.inputs = run.info.input_spec;
  Progress progress("verifying candidates of " + options.model_path, report.candidates.size());
  for (const auto& c : report.candidates) {
    CandidateVerification v;
    v.path = c.path;
    v.mode = c.kind == CandidateKind::kIdentityLike ? AblationMode::kIdentity : AblationMode::kZero;
    options.modules = {{c.path, v.mode}};
    StatusOr<AblationRun> ablation = ablate_model(options);
    progress.update(out.items.size() + 1);
    if (!ablation.ok()) {  // e.g. identity on a module whose output is shaped unlike its input
      v.text = "not verified: " + ablation.status().message();
      out.items.push_back(std::move(v));
      continue;
    }
    v.call_sites = ablation->sites.empty() ? 0 : ablation->sites.front().call_sites;
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
    out.items.push_back(std::move(v));
  }
  progress.finish();
  return out;
}

}  // namespace flopscope::cli
