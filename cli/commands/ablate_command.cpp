// flopscope ablate MODEL.pt --input SPEC... --module GLOB=zero|identity: runs the model as it is and with the
// matched module instances' outputs replaced (collector/torch/ablation.h) on the same inputs, compares the
// outputs (analyzer/outputs) and says what the instances cost in a profile of the unedited model: the work
// their removal would save, and whether the model would still compute the same answers.
#include <filesystem>
#include <map>

#include "analyzer/diff/gates.h"
#include "analyzer/summary.h"
#include "cli/command.h"
#include "cli/printers/ablation.h"
#include "cli/run_input.h"
#include "collector/torch/ablation.h"
#include "collector/torch/profile_model.h"
#include "db/model/atomic_file.h"
#include "db/model/progress.h"

namespace flopscope::cli {
namespace {

class AblateCommand final : public Command {
 public:
  void setup(CLI::App& app) override {
    app.add_option("model", model_path_, "TorchScript model (torch.jit.save output)")->required();
    app.add_option("--input", specs_, "Input spec, one per forward() argument, as for profile");
    app.add_option("--inputs", inputs_dir_, "Directory of request files, as for profile");
    app.add_option("--input-file", input_files_, "A request file (.npy, .npz or .txt); repeatable");
    app.add_option("--module", module_specs_,
                   "GLOB=zero (outputs replaced by zeros) or GLOB=identity (by the module's first input) for "
                   "the module instances whose path matches GLOB; repeatable")
        ->required();
    app.add_option(
        "--max-output-change", max_output_change_,
        "Gate: exit 1 when the largest relative output change (max |Δ| / max |output|) exceeds this "
        "or an output holds NaN/Inf; exit 2 when the outputs cannot be compared");
    app.add_option("--iterations,--iters", profile_iterations_,
                   "Iterations of the unedited model's profile, for the work saved (default 3)")
        ->check(CLI::Range(1, 1000));
    app.add_option("--seed", seed_, "Seed for the random inputs (default 0)");
    app.add_option("--threads", threads_, "Intra-op threads (default: one per CPU core)")
        ->check(CLI::Range(0, 1024));
    app.add_option("--format", format_, "table (default) or json")->check(CLI::IsMember({"table", "json"}));
    app.add_option("-o,--output", output_, "Write the report to a file instead of stdout");
    app.add_flag("-f,--force", force_, "Overwrite the output file");
  }

  int run() override {
    std::vector<ModuleAblationSpec> wanted;
    for (const auto& text : module_specs_) {
      auto spec = parse_module_ablation(text);
      if (!spec.ok()) return report_error(spec.status());
      wanted.push_back(*spec);
    }
    AblationOptions options;
    options.model_path = model_path_;
    options.seed = seed_;
    options.threads = threads_;
    if (Status s = read_inputs(options); !s.ok()) return report_error(s);
    if (!output_.empty() && output_ != "-") {
      if (Status st = check_output_path(output_, force_); !st.ok()) return report_error(st);
    }
    if (Status s = check_model_profiling(model_path_); !s.ok()) return report_error(s);

    // The unedited model's profile: its module tree resolves the globs, its costs are the work saved.
    ProfileModelOptions profile_options;
    profile_options.torch.model_path = model_path_;
    profile_options.torch.inputs = options.inputs;
    profile_options.torch.requests = options.requests;
    profile_options.torch.seed = seed_;
    profile_options.torch.threads = threads_;
    profile_options.torch.iterations = profile_iterations_;
    profile_options.torch.warmup = 1;
    profile_options.extract_graph = false;
    Progress progress("profiling " + model_path_, static_cast<std::uint64_t>(1 + profile_iterations_));
    profile_options.torch.on_iteration = [&](int done, int) {
      progress.update(static_cast<std::uint64_t>(done));
    };
    StatusOr<TorchProfile> profile = profile_model(profile_options);
    progress.finish();
    if (!profile.ok()) return report_error(profile.status());
    const RunSummary summary = summarize(profile->run);

    auto modules = resolve(wanted, profile->run);
    if (!modules.ok()) return report_error(modules.status());
    options.modules = *modules;
    StatusOr<AblationRun> ablation = ablate_model(options);
    if (!ablation.ok()) return report_error(ablation.status());

    AblationReport report;
    report.model_path = model_path_;
    report.inputs = inputs_text(options);
    report.still_running = ablation->still_running;
    report.opaque_calls = ablation->opaque_calls;
    report.outputs = compare_outputs(ablation->original, ablation->ablated);
    report.profile_iterations = profile_iterations_;
    report.total_flops = summary.total.flops;
    report.total_bytes = summary.total.bytes();
    report.total_time_p50_ns = summary.iteration_time.p50;
    for (const auto& site : ablation->sites) {
      AblatedModuleCost cost{site, "", 0, 0, 0};
      if (int i = summary.find(site.path); i >= 0) {
        const ModuleSummary& m = summary.modules[static_cast<std::size_t>(i)];
        cost = {site, m.type, m.inclusive.flops, m.inclusive.bytes(), m.inclusive_time.p50};
      }
      report.modules.push_back(std::move(cost));
    }
    if (max_output_change_) report.gate = output_change_gate(report.outputs, *max_output_change_);
    const std::string text =
        format_ == "json"
            ? ablation_json(report).dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n"
            : render_ablation_table(report);
    if (Status st = emit_output(output_, text, force_); !st.ok()) return report_error(st);
    if (report.gate && report.gate->exit_code == kExitUsage) {
      return report_error(
          InvalidArgument(model_path_ + ": --max-output-change: the outputs are " + report.gate->text));
    }
    return report.gate ? report.gate->exit_code : kExitOk;
  }

 private:
  Status read_inputs(AblationOptions& options) const {
    FS_ASSIGN_OR_RETURN(options.inputs, parse_input_specs(specs_));
    FS_RETURN_IF_ERROR(check_inputs_fit_memory(options.inputs));
    if (!inputs_dir_.empty()) {
      FS_ASSIGN_OR_RETURN(options.requests, read_input_dir(inputs_dir_));
    }
    for (const auto& f : input_files_) {
      FS_ASSIGN_OR_RETURN(InputFile file, read_input_file(f, std::filesystem::path(f).stem().string()));
      options.requests.push_back(std::move(file));
    }
    if (options.inputs.empty() && options.requests.empty())
      return InvalidArgument("give the model's inputs: --input SPEC, --inputs DIR or --input-file FILE");
    if (!options.inputs.empty() && !options.requests.empty())
      return InvalidArgument(
          "--input (random inputs) and --inputs/--input-file (request files) exclude each other");
    return Status::Ok();
  }

  static std::string inputs_text(const AblationOptions& o) {
    if (!o.requests.empty()) return std::to_string(o.requests.size()) + " request file(s)";
    std::string text;
    for (const auto& s : o.inputs) text += (text.empty() ? "--input " : " --input ") + s.to_string();
    return text;
  }

  // Every instance a glob matches (never the root), outermost only: an ablated module's descendants do not
  // run either. A glob that matches nothing is an error, so a typo cannot pass a gate.
  StatusOr<std::vector<AblatedModule>> resolve(const std::vector<ModuleAblationSpec>& wanted,
                                               const RunData& run) const {
    std::map<std::string, AblationMode> chosen;
    for (const auto& w : wanted) {
      bool matched = false;
      for (const auto& m : run.modules) {
        // The root has no call site; a ModuleList or ModuleDict has no forward(): its children are what runs.
        if (m.path.empty() || m.type == "ModuleList" || m.type == "ModuleDict" || !glob_match(w.glob, m.path))
          continue;
        matched = true;
        auto [it, added] = chosen.emplace(m.path, w.mode);
        if (!added && it->second != w.mode) {
          return InvalidArgument(model_path_ + ": --module " + w.glob + "=" + to_string(w.mode) + ": " +
                                 m.path + " is also matched as =" + to_string(it->second));
        }
      }
      if (!matched)
        return InvalidArgument(model_path_ + ": --module '" + w.glob + "' matches no module of the model");
    }
    std::vector<AblatedModule> out;
    for (const auto& [path, mode] : chosen) {
      bool inside = false;
      for (const auto& a : out) inside = inside || path.starts_with(a.path + ".");
      if (!inside) out.push_back({path, mode});  // map order puts an ancestor before its descendants
    }
    return out;
  }

  std::string model_path_, inputs_dir_, format_ = "table", output_;
  std::vector<std::string> specs_, input_files_, module_specs_;
  std::optional<double> max_output_change_;
  int profile_iterations_ = 3;
  std::uint64_t seed_ = 0;
  int threads_ = 0;
  bool force_ = false;
};

}  // namespace

FLOPSCOPE_REGISTER_COMMAND(
    AblateCommand, "ablate",
    "Run a TorchScript model with modules' outputs replaced: output change and work saved", 15);

}  // namespace flopscope::cli
