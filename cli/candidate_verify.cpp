#include "cli/candidate_verify.h"

#include <cstdlib>

#include "collector/torch/ablation.h"
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

}  // namespace

StatusOr<CandidateVerifications> verify_candidates(const RunData& run, const CandidateReport& report,
                                                   double tolerance) {
  AblationOptions options;
  FS_RETURN_IF_ERROR(run_inputs(run, options));
  Progress progress("verifying candidates of " + options.model_path, report.candidates.size());
  std::size_t done = 0;
  CandidateAblator ablate = [&](const std::string& path,
                                CandidateReplacement how) -> StatusOr<CandidateAblation> {
    options.modules = {
        {path, how == CandidateReplacement::kInput ? AblationMode::kIdentity : AblationMode::kZero}};
    StatusOr<AblationRun> ablated = ablate_model(options);
    progress.update(++done);
    if (!ablated.ok()) return ablated.status();
    CandidateAblation a;
    a.call_sites = ablated->sites.empty() ? 0 : ablated->sites.front().call_sites;
    a.original = std::move(ablated->original);
    a.ablated = std::move(ablated->ablated);
    return a;
  };
  CandidateVerifications out =
      flopscope::verify_candidates(report, ablate, tolerance, options.model_path, run.info.input_spec);
  progress.finish();
  return out;
}

}  // namespace flopscope::cli
