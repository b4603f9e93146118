// `flopscope exec -o run.db -- CMD ARGS...`: profiles any CUDA program unchanged (a Python PyTorch script
// included) by putting flopscope's injection library in CUDA_INJECTION64_PATH and NVTX_INJECTION64_PATH.
// Every CUDA process the command starts writes its own database (see collector/cupti/inject_env.h).
// Built only with CUPTI; a build without it has no `exec` command.
#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "cli/child_command.h"
#include "cli/command.h"
#include "cli/companion_dir.h"
#include "collector/cupti/gpu_probe.h"
#include "collector/cupti/inject_env.h"
#include "collector/cupti/metric_plan.h"
#include "db/model/atomic_file.h"

namespace flopscope::cli {
namespace {

namespace fs = std::filesystem;

StatusOr<std::string> injection_library() {
  std::error_code ec;
  fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  if (ec) return Internal("cannot find the flopscope executable: " + ec.message());
  for (const fs::path& candidate :
       {exe.parent_path() / "libflopscope_inject.so",
        exe.parent_path().parent_path() / "lib" / "flopscope" / "libflopscope_inject.so"}) {
    if (fs::exists(candidate, ec)) return candidate.string();
  }
  return NotFound("libflopscope_inject.so is not installed next to " + exe.string() +
                  " (reinstall flopscope)");
}

// The databases the command's processes wrote: the output itself, .rank<N> and .<pid> variants.
std::vector<std::string> written_databases(const std::string& output) {
  std::vector<std::string> found;
  fs::path out(output);
  fs::path dir = out.parent_path().empty() ? fs::path(".") : out.parent_path();
  std::string stem = out.stem().string() + ".", ext = out.extension().string();
  std::error_code ec;
  if (fs::exists(out, ec)) found.push_back(output);
  for (const auto& entry : fs::directory_iterator(dir, ec)) {
    std::string name = entry.path().filename().string();
    if (name.size() > stem.size() + ext.size() && name.rfind(stem, 0) == 0 &&
        name.compare(name.size() - ext.size(), ext.size(), ext) == 0) {
      std::string middle = name.substr(stem.size(), name.size() - stem.size() - ext.size());
      bool pid = !middle.empty() && middle.find_first_not_of("0123456789") == std::string::npos;
      bool rank = middle.rfind("rank", 0) == 0 && middle.size() > 4;
      if (pid || rank) found.push_back((dir / name).string());
    }
  }
  return found;
}

class ExecCommand final : public Command {
 public:
  void setup(CLI::App& app) override {
    app.add_option("-o,--output", output_, "Run database to write (one per CUDA process: see below)")
        ->required();
    app.add_option("--metrics", metrics_,
                   "Hardware counters per kernel: 'default' (CUDA-core FLOPs per precision, tensor-core "
                   "ops, DRAM bytes read/written, duration), 'hardware' (the default without the "
                   "SASS-patched FLOP counters: one pass), 'none' (tracing only: undisturbed timings), "
                   "or a comma-separated list of metric names (see `flopscope metrics`)")
        ->default_val("default");
    app.add_option("--max-passes", max_passes_,
                   "Refuse metric sets needing more kernel replays (0: no limit)")
        ->default_val(0);
    app.add_flag("-f,--force", force_, "Replace existing databases");
    app.add_flag(
        "--modules", modules_,
        "For PyTorch programs: load flopscope's Python companion, which wraps every nn.Module call in an "
        "NVTX range named by its named_modules() path, so kernels get module paths with no code change");
    app.add_option("command", command_, "The program and its arguments, after --")->required();
    app.footer(
        "Each CUDA process the command starts writes one database: the first writes OUTPUT, others "
        "OUTPUT.<pid>.db, or OUTPUT.rank<RANK>.db when RANK is set (torchrun). Kernels are attributed to "
        "NVTX ranges (dotted module paths). With counters on, kernels are serialised and replayed once "
        "per pass: use --metrics none for timings.\n"
        "Example: flopscope exec -o run.db -- python3 infer.py");
  }

  int run() override {
    if (Status s = check_output_path(output_, force_); !s.ok()) return report_error(s);
    auto gpus = gpu::probe_gpus();
    if (!gpus.ok()) return report_error(gpus.status());
    auto lib = injection_library();
    if (!lib.ok()) return report_error(lib.status());
    if (metrics_ != "none") {
      gpu::CuptiApi& api = gpu::real_cupti();
      std::string chip;
      if (CUptiResult r = api.chip_name(0, &chip); r != CUPTI_SUCCESS) {
        return report_error(gpu::cupti_status(api, r, "reading the GPU's chip name"));
      }
      auto plan = gpu::plan_metrics(api, chip, gpu::parse_metrics_option(metrics_, chip), "", max_passes_);
      if (!plan.ok()) return report_error(plan.status());
      // The child gets the resolved list: it cannot ask for the chip while the driver initialises.
      resolved_metrics_.clear();
      for (const auto& m : plan->metrics) resolved_metrics_ += (resolved_metrics_.empty() ? "" : ",") + m;
    }

    std::filesystem::path companion;
    if (modules_) {
      auto dir = companion_dir();
      if (!dir.ok()) return report_error(dir.status());
      companion = *dir;
    }

    std::string status_file = output_ + ".status";
    std::remove(status_file.c_str());
    std::remove(inject::claim_path(output_).c_str());
    const pid_t parent = ::getpid();
    pid_t child = ::fork();
    if (child < 0) return report_error(Internal(std::string("fork: ") + std::strerror(errno)));
    if (child == 0) {
      die_with_parent(parent);
      ::setenv("CUDA_INJECTION64_PATH", lib->c_str(), 1);
      ::setenv("NVTX_INJECTION64_PATH", lib->c_str(), 1);
      ::setenv(inject::kEnvOutput, output_.c_str(), 1);
      ::setenv(inject::kEnvOverwrite, force_ ? "1" : "0", 1);
      ::setenv(inject::kEnvMetrics, metrics_ == "none" ? "none" : resolved_metrics_.c_str(), 1);
      ::setenv(inject::kEnvMaxPasses, std::to_string(max_passes_).c_str(), 1);
      ::setenv(inject::kEnvStatusFile, status_file.c_str(), 1);
      ::setenv(inject::kEnvCommandLine, quote_command(command_).c_str(), 1);
      if (modules_) {
        put_companion_on_pythonpath(companion);
        ::setenv("FLOPSCOPE_NVTX", "1", 1);
      }
      exec_or_exit(command_);
    }
    // The terminal delivers Ctrl-C to the child too; the parent waits for it to write its database.
    int wstatus = wait_for_child(child);
    std::remove(inject::claim_path(output_).c_str());

    std::ifstream status_in(status_file);
    std::string first_error;
    std::getline(status_in, first_error);
    std::remove(status_file.c_str());
    if (!first_error.empty()) {
      for (const auto& db : written_databases(output_)) std::remove(db.c_str());
      return report_error(Unavailable(first_error));
    }
    auto written = written_databases(output_);
    if (WIFEXITED(wstatus) && WEXITSTATUS(wstatus) == 127 && written.empty()) return kExitUsage;
    if (written.empty()) {
      return report_error(
          NotFound("the command ran no CUDA code: no database written (" + quote_command(command_) + ")"));
    }
    for (const auto& db : written) std::fprintf(stderr, "flopscope: wrote %s\n", db.c_str());
    if (!WIFEXITED(wstatus) || WEXITSTATUS(wstatus) != 0) {
      std::fprintf(stderr, "flopscope: error: the command %s; the databases hold what ran until then\n",
                   WIFSIGNALED(wstatus)
                       ? ("was killed by signal " + std::to_string(WTERMSIG(wstatus))).c_str()
                       : ("exited with status " + std::to_string(WEXITSTATUS(wstatus))).c_str());
      return kExitUsage;
    }
    return kExitOk;
  }

 private:
  std::string output_;
  std::string metrics_ = "default";
  std::string resolved_metrics_;
  std::size_t max_passes_ = 0;
  bool force_ = false;
  bool modules_ = false;
  std::vector<std::string> command_;
};

}  // namespace

FLOPSCOPE_REGISTER_COMMAND(
    ExecCommand, "exec",
    "Run any CUDA program (e.g. python3 infer.py) under the GPU collector: per-kernel time, "
    "FLOPs and DRAM bytes by module",
    60);

}  // namespace flopscope::cli
