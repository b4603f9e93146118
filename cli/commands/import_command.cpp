// flopscope import FILE... -o run.db: turns traces recorded elsewhere (Kineto / PyTorch profiler JSON,
// .json.gz, Nsight Systems SQLite exports, Nsight Compute CSV) into run databases, attributed to modules.
#include <fmt/format.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <memory>
#include <optional>

#include "analyzer/analysis/load_run.h"
#include "analyzer/format.h"
#include "analyzer/importers/importer.h"
#include "analyzer/importers/weight_paths.h"
#include "analyzer/summary_facts_sink.h"
#include "analyzer/weights/weights.h"
#include "analyzer/work_text.h"
#include "cli/command.h"
#include "cli/iteration_marker_option.h"
#include "db/model/atomic_file.h"
#include "db/model/input_file.h"
#include "db/model/temp_files.h"
#include "db/model/text_escape.h"
#include "db/run_database.h"

namespace flopscope::cli {
namespace {

// Forwards to the database and counts what went through, for the one-line summary.
class CountingSink final : public RunSink {
 public:
  explicit CountingSink(RunSink& to) : to_(to) {}
  Status begin(const RunInfo& info) override { return to_.begin(info); }
  Status add_modules(std::span<const ModuleRecord> m) override {
    modules += m.size();
    return to_.add_modules(m);
  }
  Status add_ops(std::span<const OpRecord> o) override {
    ops += o.size();
    return to_.add_ops(o);
  }
  Status add_kernels(std::span<const KernelRecord> k) override {
    for (const auto& x : k) {
      ++activities;
      kernels += x.kind == KernelKind::kKernel;
    }
    return to_.add_kernels(k);
  }
  Status add_params(std::span<const ParamRecord> p) override { return to_.add_params(p); }
  Status add_graph(std::span<const GraphNode> n, std::span<const GraphEdge> e) override {
    return to_.add_graph(n, e);
  }
  Status add_quality(std::span<const QualityIssue> q) override {
    for (const auto& issue : q) warnings += issue.severity != Severity::kInfo ? issue.count : 0;
    return to_.add_quality(q);
  }
  Status add_trace_extras(const TraceExtras& e) override { return to_.add_trace_extras(e); }
  Status add_memory_events(std::span<const MemoryEvent> m) override {
    memory_events += m.size();
    return to_.add_memory_events(m);
  }
  Status finish() override { return to_.finish(); }

  std::size_t modules = 0, ops = 0, activities = 0, kernels = 0, memory_events = 0;
  std::int64_t warnings = 0;

 private:
  RunSink& to_;
};

// "trace.pt.trace.json.gz" -> "trace.pt.trace"
std::string stem_of(const std::string& path) {
  std::string name = std::filesystem::path(path).filename().string();
  for (const char* ext : {".gz", ".json", ".sqlite", ".csv"}) {
    if (name.size() > std::string(ext).size() && name.ends_with(ext))
      name.resize(name.size() - std::string(ext).size());
  }
  return name;
}

class ImportCommand final : public Command {
 public:
  void setup(CLI::App& sub) override {
    sub.add_option("files", inputs_,
                   "Trace files: PyTorch profiler JSON (.json, .json.gz), Nsight Systems SQLite "
                   "export, Nsight Compute CSV; the format is recognised from the content")
        ->required();
    sub.add_option(
        "-o,--output", output_,
        "Run database to write (one input), or a directory for several inputs (default: FILE's name "
        "with .db in the current directory)");
    sub.add_option(
        "--weights", weights_path_,
        "Weights the traced model ran with (safetensors, torch.save, TorchScript): class-based module "
        "paths become attribute paths where the tensors' names and shapes leave one choice, and the "
        "tensors are stored so that `diff` joins weights (one input only)");
    sub.add_flag("-f,--force", force_, "Overwrite existing outputs");
    sub.add_flag("-q,--quiet", quiet_, "Print nothing on success");
    sub.add_option(
        "--graph-capture", graph_capture_,
        "PyTorch profiler trace recorded while the run's CUDA graph was captured: kernels replayed from "
        "the graph are attributed to the ops and modules of the capture (one input)");
    add_iteration_marker_option(sub, iteration_marker_);
  }

  int run() override {
    // Decide every output first, so that a usage error never leaves half the work done.
    std::vector<std::string> outputs;
    bool to_dir = inputs_.size() > 1 || (!output_.empty() && std::filesystem::is_directory(output_));
    if (inputs_.size() > 1 && !output_.empty() && !std::filesystem::is_directory(output_)) {
      return report_error(
          InvalidArgument(output_ + ": with several inputs, -o must name an existing directory"));
    }
    for (const auto& in : inputs_) {
      std::string out = output_.empty() ? stem_of(in) + ".db"
                        : to_dir        ? (std::filesystem::path(output_) / (stem_of(in) + ".db")).string()
                                        : output_;
      outputs.push_back(out);
    }
    if ((!weights_path_.empty() || !graph_capture_.empty()) && inputs_.size() > 1) {
      return report_error(
          InvalidArgument((weights_path_.empty() ? graph_capture_ : weights_path_) +
                          ": --weights and --graph-capture take one trace to import, not several"));
    }
    if (!graph_capture_.empty()) {
      if (Status st = check_input_file(graph_capture_); !st.ok()) return report_error(st);
    }
    std::vector<std::string> read_only = inputs_;
    if (!weights_path_.empty()) read_only.push_back(weights_path_);
    if (!graph_capture_.empty()) read_only.push_back(graph_capture_);
    if (Status st = check_distinct_paths(outputs, read_only); !st.ok()) return report_error(st);
    for (std::size_t i = 0; i < inputs_.size(); ++i) {
      const auto& in = inputs_[i];
      if (Status st = check_input_file(in); !st.ok()) return report_error(st);
      if (looks_like_sqlite(in) && is_run_database(in)) {
        return report_error(InvalidArgument(in + ": already a flopscope run database; nothing to import"));
      }
      auto importer = find_importer(in);
      if (!importer.ok()) return report_error(importer.status());
      ImportOptions probe;
      probe.graph_capture = graph_capture_;
      if (Status st = check_graph_capture(**importer, in, probe); !st.ok()) return report_error(st);
      Status writable = check_output_path(outputs[i], force_);
      if (!writable.ok()) return report_error(writable);
    }
    if (!weights_path_.empty()) {
      if (Status st = check_input_file(weights_path_); !st.ok()) return report_error(st);
      auto w = read_weights(weights_path_, WeightsOptions{});
      if (!w.ok()) return report_error(w.status());
      weights_ = std::move(w).value();
    }
    // Each run database is finished under a staging name beside its target; the targets are replaced only
    // once every input imported, so a failing later file leaves no earlier output behind.
    std::vector<std::string> staged;
    auto drop_staged = [&] {
      for (const auto& s : staged) {
        std::filesystem::remove(s);
        unregister_temp_path(s);
      }
    };
    for (std::size_t i = 0; i < inputs_.size(); ++i) {
      std::string stage;
      auto fd = open_temp_beside(outputs[i], "import", &stage);
      if (!fd.ok()) {
        drop_staged();
        return report_error(fd.status());
      }
      ::close(*fd);
      staged.push_back(stage);
      int code = import_one(inputs_[i], stage, outputs[i]);
      if (code != kExitOk) {
        drop_staged();
        return code;
      }
    }
    for (std::size_t i = 0; i < inputs_.size(); ++i) {
      if (Status st = publish_file(staged[i], outputs[i], force_); !st.ok()) {
        drop_staged();
        return report_error(st);
      }
      unregister_temp_path(staged[i]);
    }
    return kExitOk;
  }

 private:
  int import_one(const std::string& in, const std::string& stage, const std::string& out) {
    auto importer = find_importer(in);
    if (!importer.ok()) return report_error(importer.status());
    auto db = create_run_database(stage, true);
    if (!db.ok()) return report_error(db.status());
    SummaryFactsSink facts(**db);  // report then reads no rows back
    CountingSink sink(facts);
    ImportOptions options;
    options.tool_version = FLOPSCOPE_VERSION_STRING;
    options.command_line = "flopscope import " + in;
    options.graph_capture = graph_capture_;
    if (!graph_capture_.empty()) options.command_line += " --graph-capture " + graph_capture_;
    options.iteration_marker = iteration_marker_;
    if (!iteration_marker_.empty()) options.command_line += " --iteration-marker '" + iteration_marker_ + "'";
    std::string mapped;
    if (weights_) {
      // The module tree is renamed as a whole, so the run is collected first and written after.
      options.command_line += " --weights " + weights_path_;
      MemoryRunSink memory;
      if (Status s = (*importer)->import(in, memory, options); !s.ok()) return report_error(s);
      WeightPathResult r = map_weight_paths(memory.data(), *weights_, weights_path_);
      mapped = fmt::format(
          "module paths from {}: {} of {} mapped ({} by call order), {} without tensors of their "
          "own, {} ambiguous; {} tensors stored",
          weights_path_, r.mapped, r.modules, r.by_order, r.no_tensors, r.ambiguous, r.tensors);
      if (Status s = write_run(sink, memory.data()); !s.ok()) return report_error(s);
    } else {
      Status s = (*importer)->import(in, sink, options);
      if (!s.ok()) return report_error(s);  // the unfinished database removes its temporary file
    }
    db->reset();
    if (!quiet_) {
      auto pct = [](double a, double b) { return b > 0 ? 100.0 * a / b : 0.0; };
      // Attribution as `report` states it (the summary facts written with the run): a module other than the
      // root.
      const SummaryFacts& f = facts.facts();
      const WindowKernels w = window_kernels(f.kernels, f.kernel_time_ns, f.orphan_kernels, f.orphan_ns);
      fmt::print(
          "{} ({}): {} kernels + {} memcpy/memset, {} ops, {} modules{}; device activities linked to an op "
          "{}/{}, attributed to a module {}/{} ({:.1f}% of device time){}{} -> {}\n",
          in, (*importer)->name(), sink.kernels, sink.activities - sink.kernels, sink.ops, sink.modules,
          sink.memory_events > 0 ? ", " + count_of(static_cast<long long>(sink.memory_events), "memory event")
                                 : "",
          f.kernels_with_op, w.kernels, f.kernels_with_module, w.kernels,
          pct(f.kernel_time_attributed_ns, w.time_ns), orphans_apart_text(w.orphans),
          sink.warnings > 0 ? fmt::format("; {} data-quality warnings", sink.warnings) : "", out);
      if (!mapped.empty()) fmt::print("{}\n", terminal_safe(mapped));
    }
    return kExitOk;
  }

  std::vector<std::string> inputs_;
  std::string output_;
  std::string weights_path_;
  std::optional<WeightsReport> weights_;
  std::string graph_capture_;
  std::string iteration_marker_;
  bool force_ = false;
  bool quiet_ = false;
};

}  // namespace

FLOPSCOPE_REGISTER_COMMAND(ImportCommand, "import",
                           "Import a PyTorch profiler, Nsight Systems or Nsight Compute trace", 20);

}  // namespace flopscope::cli
