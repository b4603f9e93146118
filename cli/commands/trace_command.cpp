// `flopscope trace [-o run.db] -- python3 infer.py ARGS`: runs an unchanged eager PyTorch program with
// flopscope's Python companion (python/flopscope) loaded through PYTHONPATH + sitecustomize, then imports
// what it recorded (a Kineto-schema trace whose module ranges carry named_modules() paths, the module tree,
// weights and activation statistics) into one run database.
#include <fmt/format.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "analyzer/diff/interleaved_rounds.h"
#include "analyzer/format.h"
#include "analyzer/importers/companion_choice.h"
#include "analyzer/importers/companion_run.h"
#include "analyzer/importers/importer.h"
#include "analyzer/summary_facts_sink.h"
#include "cli/child_command.h"
#include "cli/command.h"
#include "cli/companion_dir.h"
#include "collector/torch/ablation.h"
#include "db/model/atomic_file.h"
#include "db/model/sha256.h"
#include "db/model/temp_files.h"
#include "db/model/text_escape.h"
#include "db/run_database.h"

namespace flopscope::cli {
namespace {

namespace fs = std::filesystem;

// Files named <stem>.<pid>.json in dir, as (pid, path), in pid order.
std::vector<std::pair<long, fs::path>> files_named(const fs::path& dir, const std::string& stem) {
  std::vector<std::pair<long, fs::path>> out;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(dir, ec)) {
    std::string name = e.path().filename().string();
    if (name.rfind(stem + ".", 0) != 0 || !name.ends_with(".json")) continue;
    std::string middle = name.substr(stem.size() + 1, name.size() - stem.size() - 6);
    if (middle.empty() || middle.find_first_not_of("0123456789") != std::string::npos) continue;
    out.emplace_back(std::stol(middle), e.path());
  }
  std::sort(out.begin(), out.end());
  return out;
}

// Below this much free space in TMPDIR, a companion that wrote nothing is taken to have found it full.
constexpr std::uintmax_t kTmpdirLowBytes = 1 << 20;

// The folder the companion writes into: removed at the end, on Ctrl-C/SIGTERM/SIGHUP (registered), and,
// after a kill -9, by the next `flopscope trace` (named with this process's pid).
class TempDir {
 public:
  TempDir() {
    const char* tmp = std::getenv("TMPDIR");
    const std::string dir = tmp != nullptr && *tmp != '\0' ? tmp : "/tmp";
    (void)remove_stale_temp_paths(dir, "flopscope-trace-");
    std::string pattern = temp_name(dir + "/flopscope-trace-");
    if (::mkdtemp(pattern.data()) != nullptr) {
      path_ = pattern;
      register_temp_path(path_);
    }
  }
  ~TempDir() {
    std::error_code ec;
    if (path_.empty()) return;
    fs::remove_all(path_, ec);
    unregister_temp_path(path_.string());
  }
  const fs::path& path() const { return path_; }

 private:
  fs::path path_;
};

class TraceCommand final : public Command {
 public:
  void setup(CLI::App& app) override {
    app.add_option("-o,--output", output_, "Run database to write (default run.db)");
    app.add_flag("--activations", activations_,
                 "Record per module call output statistics (norm, max |x|, zeros, change vs input) for "
                 "`report --candidates`; costs extra time, reported at the end");
    app.add_flag(
        "--save-outputs", save_outputs_,
        "Store what the root module returned for each distinct input (whole up to 64 MB of elements, "
        "then statistics, hash and top-1), so `diff A.db B.db` compares the outputs");
    app.add_option("--iterations", iterations_,
                   "Iterations to record (default 10): calls of the root module, or flopscope.step() calls")
        ->check(CLI::PositiveNumber);
    app.add_option("--warmup", warmup_, "Iterations to run unrecorded first (default 0)")
        ->check(CLI::NonNegativeNumber);
    app.add_flag(
        "--meta", meta_,
        "Count FLOPs and bytes per module on the meta device (torch >= 2): the model is built and run "
        "without values and without reading weights; ops whose cost depends on values are listed");
    app.add_option(
           "--repeat", repeat_,
           "Run the program N times, each its own process, into one run that records which process ran "
           "each iteration: `diff` then compares time over per-process medians (needs N >= 3 on both "
           "sides; default 1)")
        ->check(CLI::Range(1, 1000));
    app.add_option(
           "--ablate", ablate_,
           "GLOB=zero or GLOB=identity: the program runs with the outputs of the modules whose path "
           "matches GLOB replaced (zeros, or the module's first input) through forward hooks; the run "
           "notes what was replaced (repeatable)")
        ->allow_extra_args(
            false);  // one value per --ablate: "--ablate R -- prog ARGS" keeps ARGS the program's
    app.add_flag("-f,--force", force_, "Overwrite the output database");
    app.add_option("command", command_, "The Python program and its arguments, after --")->required();
    app.footer(
        "Module paths are the program's named_modules() paths (the root is the outermost module called); "
        "one iteration is one call of the root module, or one flopscope.step() where the program calls it. "
        "CPU ops are recorded with torch.profiler (host clock; FLOPs are analytic, from shapes). The "
        "program's output and exit status are its own; if it fails after recording started, the run is "
        "still written and marked so in its data-quality table.\n"
        "Example: flopscope trace -o v1.db -- python3 samples/eager/run_sonnet_mini.py --version v1");
  }

  int run() override {
    if (meta_ && save_outputs_)
      return report_error(
          InvalidArgument("--meta: meta tensors have no values, so --save-outputs cannot be used with it"));
    if (meta_ && activations_) {
      return report_error(
          InvalidArgument("--meta: meta tensors have no values, so --activations cannot be used "
                          "with it"));
    }
    for (const auto& a : ablate_) {
      if (auto spec = parse_module_ablation(a); !spec.ok()) return report_error(spec.status());
    }
    if (Status s = check_output_path(output_, force_); !s.ok()) return report_error(s);
    auto dir = companion_dir();
    if (!dir.ok()) return report_error(dir.status());
    TempDir work;
    if (work.path().empty())
      return report_error(IoError(std::string("cannot make a temporary folder: ") + std::strerror(errno)));

    if (repeat_ > 1) return run_repeated(*dir);
    int code = run_program(*dir, work.path());
    if (code < 0) return kExitUsage;  // could not start it; the child said why
    return finish(work.path(), code, nullptr);
  }

 private:
  // Runs the command with the companion; returns its exit code (128 + signal when killed), -1 when the
  // program could not be started.
  int run_program(const fs::path& dir, const fs::path& work) {
    const pid_t parent = ::getpid();
    pid_t child = ::fork();
    if (child < 0) {
      (void)report_error(Internal(std::string("fork: ") + std::strerror(errno)));
      return -1;
    }
    if (child == 0) {
      die_with_parent(parent);
      put_companion_on_pythonpath(dir);
      ::setenv("FLOPSCOPE_TRACE_DIR", work.c_str(), 1);
      ::setenv("FLOPSCOPE_WARMUP", std::to_string(warmup_).c_str(), 1);
      ::setenv("FLOPSCOPE_ITERATIONS", std::to_string(iterations_).c_str(), 1);
      ::setenv("FLOPSCOPE_ACTIVATIONS", activations_ ? "1" : "0", 1);
      ::setenv("FLOPSCOPE_META", meta_ ? "1" : "0", 1);
      ::setenv("FLOPSCOPE_SAVE_OUTPUTS", save_outputs_ ? "1" : "0", 1);
      std::string ablate;
      for (const auto& a : ablate_) ablate += a + "\n";
      ::setenv("FLOPSCOPE_ABLATE", ablate.c_str(), 1);
      exec_or_exit(command_);
    }
    // The terminal delivers Ctrl-C to the program too; it writes what it recorded, then this imports it.
    int status = wait_for_child(child);
    child_pid_ = child;
    if (WIFSIGNALED(status)) {
      how_ = "was killed by signal " + std::to_string(WTERMSIG(status));
      return 128 + WTERMSIG(status);
    }
    int code = WEXITSTATUS(status);
    how_ = "exited with status " + std::to_string(code);
    bool started = !files_named(work, "started").empty();
    if (code == 127 && !started) return -1;
    return code;
  }

  // --repeat N: N processes, each imported into memory, joined in order (each one's iterations after the
  // previous one's, recorded as a process of its own), then written as one run.
  int run_repeated(const fs::path& dir) {
    const std::string cmd = quote_command(command_);
    RunData joined;
    for (int r = 0; r < repeat_; ++r) {
      TempDir work;
      if (work.path().empty())
        return report_error(IoError(std::string("cannot make a temporary folder: ") + std::strerror(errno)));
      int code = run_program(dir, work.path());
      if (code < 0) return kExitUsage;
      if (code != 0) {
        return fail(
            Unavailable(fmt::format("{}: process {} of {} {}: no run written", cmd, r + 1, repeat_, how_)),
            code);
      }
      MemoryRunSink memory;
      if (int rc = finish(work.path(), code, &memory); rc != 0) return rc;
      if (r == 0) {
        joined = std::move(memory.data());
      } else {
        append_round(joined, std::move(memory.data()));
      }
    }
    joined.summary_facts = {};  // derived again from the joined rows
    auto sink = create_run_database(output_, force_);
    if (!sink.ok()) return report_error(sink.status());
    if (Status s = write_run_with_facts(**sink, joined); !s.ok()) return report_error(s);
    std::fprintf(stderr, "flopscope: wrote %s: %s from %d processes, %zu modules, %zu parameters/buffers\n",
                 output_.c_str(), count_of(joined.info.iterations, "iteration").c_str(), repeat_,
                 joined.modules.size(), joined.params.size());
    return kExitOk;
  }

  // The program's own failure wins over ours: its exit code when it failed, else 2.
  int fail(const Status& s, int code) {
    (void)report_error(s);
    return code != 0 ? code : kExitUsage;
  }

  // Imports what the program recorded: into the output database, or into `memory` (--repeat).
  int finish(const fs::path& work, int code, MemoryRunSink* memory) {
    const std::string cmd = quote_command(command_);
    auto started = files_named(work, "started");
    auto infos = files_named(work, "info");
    // Nothing written into a full temporary folder: say so, not that the program is not Python.
    std::error_code ec;
    const fs::space_info space = fs::space(work, ec);
    if ((started.empty() || infos.empty()) && !ec && space.available < kTmpdirLowBytes) {
      return fail(IoError(fmt::format("{}: no space left in TMPDIR={} ({} KiB free): the companion could not "
                                      "write what it recorded; no run written",
                                      cmd, terminal_safe(work.parent_path().string(), false),
                                      space.available / 1024)),
                  code);
    }
    if (started.empty()) {
      return fail(InvalidArgument(cmd + ": no Python process loaded flopscope's companion (is it a Python "
                                        "program? `python -I` or `-E` ignore PYTHONPATH)"),
                  code);
    }
    if (infos.empty()) {
      return fail(Unavailable(cmd + ": the program " + how_ +
                              " before the companion could write anything: no run written"),
                  code);
    }
    std::vector<CompanionInfo> read;
    for (const auto& [pid, file] : infos) {
      auto info = read_companion_info(file.string());
      if (!info.ok()) return fail(info.status(), code);
      read.push_back(std::move(*info));
    }
    // Which process the run holds and what it says about the recording: the core's policy
    // (analyzer/importers/companion_choice).
    const CompanionRunContext context{cmd, how_, code, static_cast<std::int64_t>(child_pid_), activations_};
    if (Status st = check_companion_request(read, context); !st.ok()) return fail(st, kExitUsage);
    auto choice = choose_companion_run(read, context);
    if (!choice.ok()) return fail(choice.status(), code);
    const CompanionInfo* chosen = choice->chosen;
    std::vector<QualityIssue> extra = std::move(choice->quality);
    if (choice->with_trace > 1) {
      std::fprintf(stderr, "flopscope: %d Python processes recorded traces; %s holds process %lld's\n",
                   choice->with_trace, output_.c_str(), static_cast<long long>(chosen->pid));
    }

    ImportOptions options;
    options.progress = false;
    options.tool_version = FLOPSCOPE_VERSION_STRING;
    options.command_line = repeat_ > 1 ? fmt::format("flopscope trace --repeat {} -- {}", repeat_, cmd)
                                       : "flopscope trace -- " + cmd;
    options.modules = chosen->modules;
    // The run's source is the program's script (the first argument ending in .py), else the command.
    std::string source = command_.front();
    for (const auto& a : command_) {
      if (a.ends_with(".py")) {
        source = a;
        break;
      }
    }
    std::unique_ptr<RunSink> file;
    std::optional<SummaryFactsSink> facts;  // report then reads no rows back
    if (memory == nullptr) {
      auto sink = create_run_database(output_, force_);
      if (!sink.ok()) return fail(sink.status(), code);
      file = std::move(sink).value();
      facts.emplace(*file);
    }
    RunSink& target = memory != nullptr ? static_cast<RunSink&>(*memory) : *facts;
    CompanionSink wrapped(target, *chosen, std::move(extra), [&](RunInfo& info) {
      info.source_path = source;
      info.source_sha256.clear();
      if (auto h = sha256_file(source); h.ok()) info.source_sha256 = *h;
      info.device = chosen->meta ? "meta" : "cpu";
      info.input_spec = "as the program makes them";
    });
    fs::path trace = work / chosen->trace;
    if (Status s = import_trace(trace.string(), wrapped, options); !s.ok()) {
      return fail(Internal("importing the companion's trace failed: " + s.message()), code);
    }
    if (memory != nullptr) return kExitOk;
    std::fprintf(stderr, "flopscope: wrote %s: %s of %s (torch %s), %zu modules, %zu parameters/buffers%s\n",
                 output_.c_str(), count_of(wrapped.stored_iterations(), "iteration").c_str(),
                 chosen->root.empty() ? "the program" : chosen->root.c_str(), chosen->torch_version.c_str(),
                 chosen->modules.size(), chosen->params.size(),
                 code != 0 ? "; the program failed, see its data-quality rows" : "");
    return code;
  }

  std::string output_ = "run.db";
  bool activations_ = false;
  bool save_outputs_ = false;
  std::vector<std::string> ablate_;  // --ablate GLOB=zero|identity, checked before the program starts
  int iterations_ = 10;
  int warmup_ = 0;
  int repeat_ = 1;
  bool force_ = false;
  bool meta_ = false;
  std::vector<std::string> command_;
  pid_t child_pid_ = 0;
  std::string how_;
};

}  // namespace

FLOPSCOPE_REGISTER_COMMAND(TraceCommand, "trace",
                           "Run an eager PyTorch program (python3 infer.py) with module paths, weights and "
                           "iterations recorded: CPU ops, FLOPs and time per named_modules() path",
                           15);

}  // namespace flopscope::cli
