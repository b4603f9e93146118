// flopscope profile MODEL.pt --input SPEC... -o run.db: runs a TorchScript model on the CPU under the op
// observer (the shared pipeline, collector/torch/profile_model.h) and writes the run database.
#include <filesystem>

#include "analyzer/format.h"
#include "analyzer/summary_facts_sink.h"
#include "cli/command.h"
#include "collector/torch/profile_model.h"
#include "db/model/atomic_file.h"
#include "db/model/progress.h"
#include "db/run_database.h"

namespace flopscope::cli {
namespace {

class ProfileCommand final : public Command {
 public:
  void setup(CLI::App& app) override {
    app.add_option("model", options_.model_path, "TorchScript model (torch.jit.save output)")->required();
    app.add_option(
        "--input", specs_,
        "Input spec, one per forward() argument: DTYPE[D0,D1,...][@LOW:HIGH], e.g. float32[1,3,224,224], "
        "int64[1,4096]@0:32000 (integers default to [0,100))");
    app.add_option(
        "--inputs", inputs_dir_,
        "Directory of request files (.npy arrays or .txt token ids); files in DIR/<set>/ are tagged <set>");
    app.add_option("--input-file", input_files_, "A request file (.npy or .txt); repeatable");
    app.add_flag("--activations", options_.activations,
                 "Record per module call output statistics (norm, max |x|, zeros, change vs input) for "
                 "`report --candidates`; costs extra time, reported at the end");
    iters_option_ = app.add_option(
        "--iterations,--iters", options_.iterations,
        "Measured iterations (default 10; with request files: passes over the set, default 1)");
    app.add_option("--warmup", options_.warmup, "Warmup iterations, not recorded (default 2)");
    app.add_option("--device", options_.device,
                   "cpu (default) or cuda (needs a LibTorch with CUDA; see docs/gpu.md)")
        ->check(CLI::IsMember({"cpu", "cuda"}));
    app.add_option("--threads", options_.threads,
                   "Intra-op threads (default: one per CPU core; at most 1024)")
        ->check(CLI::Range(0, 1024));
    app.add_option("--seed", options_.seed, "Seed for the random inputs (default 0)");
    app.add_option("--attribution", options_.attribution,
                   "instances (default): each op's module is the module object whose method runs (model "
                   "run as written, un-inlined); hierarchy: optimized run, modules from hierarchy names "
                   "(ambiguous ones reported as a data-quality error)")
        ->check(CLI::IsMember({"instances", "hierarchy"}));
    app.add_flag("--save-outputs", save_outputs_,
                 "Store what forward() returned for each distinct input (whole up to 64 MB of elements per "
                 "run, then statistics, hash and top-1), so `diff A.db B.db` compares the outputs");
    app.add_option("-o,--output", output_, "Run database to write")->required();
    app.add_flag("-f,--force", force_, "Overwrite the output database");
  }

  int run() override {
    iters_given_ = iters_option_ != nullptr && iters_option_->count() > 0;
    // Cheap checks before loading the model: a bad spec or output path fails at once.
    StatusOr<std::vector<InputSpec>> specs = parse_input_specs(specs_);
    if (!specs.ok()) return report_error(specs.status());
    options_.inputs = *specs;
    if (Status s = check_inputs_fit_memory(options_.inputs); !s.ok()) return report_error(s);
    if (!inputs_dir_.empty()) {
      auto files = read_input_dir(inputs_dir_);
      if (!files.ok()) return report_error(files.status());
      options_.requests = std::move(*files);
    }
    for (const auto& f : input_files_) {
      auto std_path = std::filesystem::path(f);
      auto file = read_input_file(f, std_path.stem().string());
      if (!file.ok()) return report_error(file.status());
      options_.requests.push_back(std::move(*file));
    }
    if (options_.inputs.empty() && options_.requests.empty()) {
      return report_error(
          InvalidArgument("give the model's inputs: --input SPEC, --inputs DIR or --input-file FILE"));
    }
    if (!options_.inputs.empty() && !options_.requests.empty()) {
      return report_error(InvalidArgument(
          "--input (random inputs) and --inputs/--input-file (request files) exclude each other"));
    }
    if (!options_.requests.empty() && !iters_given_) options_.iterations = 1;
    if (Status s = check_output_path(output_, force_); !s.ok()) return report_error(s);
    options_.tool_version = FLOPSCOPE_VERSION_STRING;
    options_.command_line = "flopscope profile " + options_.model_path;
    for (const auto& s : specs_) options_.command_line += " --input " + s;
    if (!inputs_dir_.empty()) options_.command_line += " --inputs " + inputs_dir_;
    for (const auto& f : input_files_) options_.command_line += " --input-file " + f;
    options_.command_line += " --iterations " + std::to_string(options_.iterations) + " --warmup " +
                             std::to_string(options_.warmup);
    if (options_.device != "cpu") options_.command_line += " --device " + options_.device;
    // Everything that changes what was measured goes into the stored command line.
    options_.command_line += " --seed " + std::to_string(options_.seed);
    if (options_.threads > 0) options_.command_line += " --threads " + std::to_string(options_.threads);
    if (options_.activations) options_.command_line += " --activations";
    if (save_outputs_) options_.command_line += " --save-outputs";
    options_.command_line += " --attribution " + options_.attribution;

    Progress progress("profiling " + options_.model_path,
                      static_cast<std::uint64_t>(options_.warmup + options_.iterations));
    options_.on_iteration = [&](int done, int) { progress.update(static_cast<std::uint64_t>(done)); };
    StatusOr<TorchProfile> profile = profile_model({options_});
    progress.finish();
    if (!profile.ok()) return report_error(profile.status());
    RunData& run = profile->run;
    for (const auto& q : run.quality) {
      // What --activations cost and the reference-BLAS warning are also said on stderr.
      if (q.code == QualityCode::activation_statistics)
        std::fprintf(stderr, "flopscope: --activations: %s\n", q.detail.c_str());
      if (q.code == QualityCode::reference_blas)
        std::fprintf(stderr, "flopscope: warning: running on the reference BLAS: %s\n", q.detail.c_str());
    }

    // The collector records the outputs anyway (diff A.pt B.pt compares them); stored only when asked.
    if (!save_outputs_) {
      run.outputs.clear();
      std::erase_if(run.quality,
                    [](const QualityIssue& q) { return q.code == QualityCode::outputs_summarized; });
    }
    StatusOr<std::unique_ptr<RunSink>> sink = create_run_database(output_, force_);
    if (!sink.ok()) return report_error(sink.status());
    // With the summary facts: report then reads no rows back.
    if (Status s = write_run_with_facts(**sink, run); !s.ok()) return report_error(s.WithContext(output_));
    std::fprintf(stderr, "flopscope: wrote %s: %s over %s, %s, %zu parameters/buffers\n", output_.c_str(),
                 count_of(static_cast<long long>(run.ops.size()), "op").c_str(),
                 count_of(options_.iterations, "iteration").c_str(),
                 count_of(static_cast<long long>(run.modules.size()), "module").c_str(), run.params.size());
    if (save_outputs_)
      std::fprintf(stderr, "flopscope: stored the outputs of %s\n",
                   count_of(static_cast<long long>(run.outputs.size()), "distinct input").c_str());
    return kExitOk;
  }

 private:
  TorchProfileOptions options_;
  std::vector<std::string> specs_;
  std::string inputs_dir_;
  std::vector<std::string> input_files_;
  CLI::Option* iters_option_ = nullptr;
  bool iters_given_ = false;
  std::string output_;
  bool force_ = false;
  bool save_outputs_ = false;
};

}  // namespace

FLOPSCOPE_REGISTER_COMMAND(ProfileCommand, "profile",
                           "Profile a TorchScript model on the CPU into a run database", 10);

}  // namespace flopscope::cli
