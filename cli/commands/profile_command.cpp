// flopscope profile MODEL.pt --input SPEC... -o run.db: runs a TorchScript model on the CPU under the op
// observer and writes the run database.
#include <fmt/format.h>

#include "analyzer/op_costs.h"
#include "cli/command.h"
#include "collector/torch/torch_profiler.h"
#include "db/model/atomic_file.h"
#include "db/model/progress.h"
#include "db/run_database.h"

namespace flopscope::cli {
namespace {

class ProfileCommand final : public Command {
 public:
  void setup(CLI::App& app) override {
    app.add_option("model", options_.model_path, "TorchScript model (torch.jit.save output)")->required();
    app.add_option("--input", specs_,
                   "Input spec, one per forward() argument: DTYPE[D0,D1,...][@LOW:HIGH], e.g. float32[1,3,224,224], "
                   "int64[1,4096]@0:32000 (integers default to [0,100))")
        ->required();
    app.add_option("--iters", options_.iterations, "Measured iterations (default 10)");
    app.add_option("--warmup", options_.warmup, "Warmup iterations, not recorded (default 2)");
    app.add_option("--threads", options_.threads, "Intra-op threads (default: LibTorch's choice)");
    app.add_option("--seed", options_.seed, "Seed for the random inputs (default 0)");
    app.add_option("-o,--output", output_, "Run database to write")->required();
    app.add_flag("--force", force_, "Overwrite the output database");
  }

  int run() override {
    // Cheap checks before loading the model: a bad spec or output path fails at once.
    StatusOr<std::vector<InputSpec>> specs = parse_input_specs(specs_);
    if (!specs.ok()) return report_error(specs.status());
    options_.inputs = *specs;
    if (Status s = check_output_path(output_, force_); !s.ok()) return report_error(s);
    options_.tool_version = FLOPSCOPE_VERSION_STRING;
    options_.command_line = "flopscope profile " + options_.model_path;
    for (const auto& s : specs_) options_.command_line += " --input " + s;

    Progress progress("profiling " + options_.model_path, static_cast<std::uint64_t>(options_.warmup + options_.iterations));
    options_.on_iteration = [&](int done, int) { progress.update(static_cast<std::uint64_t>(done)); };
    StatusOr<TorchProfile> profile = profile_torchscript(options_);
    progress.finish();
    if (!profile.ok()) return report_error(profile.status());
    RunData& run = profile->run;
    assign_op_costs(run.ops);

    StatusOr<std::unique_ptr<RunSink>> sink = create_run_database(output_, force_);
    if (!sink.ok()) return report_error(sink.status());
    if (Status s = write_run(**sink, run); !s.ok()) return report_error(s.WithContext(output_));
    std::fprintf(stderr, "flopscope: wrote %s: %zu ops over %d iterations, %zu modules, %zu parameters\n",
                 output_.c_str(), run.ops.size(), options_.iterations, run.modules.size(), run.params.size());
    return kExitOk;
  }

 private:
  TorchProfileOptions options_;
  std::vector<std::string> specs_;
  std::string output_;
  bool force_ = false;
};

}  // namespace

FLOPSCOPE_REGISTER_COMMAND(ProfileCommand, "profile", "Profile a TorchScript model on the CPU into a run database", 10);

}  // namespace flopscope::cli
