// flopscope export RUN --chrome-trace OUT.json[.gz]: hands a run to Perfetto / chrome://tracing / HTA (ops,
// kernels with their runtime calls, module ranges named by path, iterations, counters, launch -> kernel
// arrows, the device). Loads back through `import`.
#include <cstdio>
#include <string>

#include "analyzer/analysis/load_run.h"
#include "analyzer/export/chrome_trace.h"
#include "analyzer/format.h"
#include "cli/command.h"
#include "cli/iteration_marker_option.h"
#include "cli/run_input.h"
#include "db/model/atomic_file.h"

namespace flopscope::cli {
namespace {

class ExportCommand final : public Command {
 public:
  void setup(CLI::App& app) override {
    app.add_option("run", path_, "Run database or trace file")->required();
    app.add_option("--chrome-trace", output_, "Chrome trace JSON to write (.json, or .json.gz compressed)")
        ->required();
    add_iteration_marker_option(app, iteration_marker_);
    app.add_flag("-f,--force", force_, "Overwrite the output file");
  }

  int run() override {
    const bool gz = output_.ends_with(".json.gz");
    if (!gz && !output_.ends_with(".json"))
      return report_error(InvalidArgument(output_ + ": a Chrome trace is written as .json or .json.gz"));
    if (Status s = check_output_path(output_, force_); !s.ok()) return report_error(s);
    TraceExtras extras;
    StatusOr<RunData> run = load_run_with_extras(
        path_, TraceOptions{.graph_capture = {}, .iteration_marker = iteration_marker_}, extras);
    if (!run.ok()) return report_error(run.status());
    if (run->ops.empty() && run->kernels.empty())
      return report_error(InvalidArgument(path_ + ": the run has no ops and no kernels to export"));
    ChromeTraceStats stats;
    std::string text = chrome_trace_json(*run, &stats, &extras);
    if (gz) {
      StatusOr<std::string> packed = gzip_text(text);
      if (!packed.ok()) return report_error(packed.status());
      text = std::move(*packed);
    }
    if (Status s = write_file_atomically(output_, text, force_); !s.ok()) return report_error(s);
    std::fprintf(stderr,
                 "flopscope: wrote %s: %zu ops, %zu kernels, %zu runtime calls (%zu launched kernels), %zu "
                 "Python frames, %zu module ranges, %s\n",
                 output_.c_str(), stats.ops, stats.kernels, stats.runtime_calls + stats.other_runtime_calls,
                 stats.runtime_calls, stats.python_events, stats.module_ranges,
                 count_of(static_cast<long long>(stats.iterations), "iteration").c_str());
    return kExitOk;
  }

 private:
  std::string path_, output_, iteration_marker_;
  bool force_ = false;
};

}  // namespace

FLOPSCOPE_REGISTER_COMMAND(ExportCommand, "export", "Export a run as a Chrome trace for Perfetto", 58);

}  // namespace flopscope::cli
