// Kineto / PyTorch profiler Chrome-trace JSON (.json or .json.gz), streamed event by event.
#include <memory>

#include "analyzer/importers/byte_source.h"
#include "analyzer/importers/importer.h"
#include "analyzer/importers/importer_util.h"
#include "analyzer/importers/json_stream.h"
#include "analyzer/importers/kineto_events.h"
#include "analyzer/importers/trace_builder.h"
#include "db/model/progress.h"

namespace flopscope {
namespace {

class KinetoImporter final : public Importer {
 public:
  std::string_view name() const override { return "kineto"; }

  int sniff(std::string_view head, const std::string& path) const override {
    std::size_t i = head.find_first_not_of(" \t\r\n");
    if (i == std::string_view::npos) return 0;
    if (head[i] == '{') {
      if (head.find("\"traceEvents\"") != std::string_view::npos ||
          head.find("\"schemaVersion\"") != std::string_view::npos ||
          head.find("\"deviceProperties\"") != std::string_view::npos) {
        return 95;
      }
      return 20;  // some JSON: ours to explain that it is not a trace
    }
    if (head[i] == '[') return head.find("\"ph\"") != std::string_view::npos ? 80 : 15;
    (void)path;
    return 0;
  }

  Status import(const std::string& path, RunSink& sink, const ImportOptions& options) const override {
    FS_ASSIGN_OR_RETURN(ByteSource source, ByteSource::open(path));
    auto hash = hash_file_async(path);
    TraceBuilder builder(make_run_info(path, SourceKind::kKineto, options));
    if (!options.iteration_marker.empty())
      FS_RETURN_IF_ERROR(builder.set_iteration_marker(options.iteration_marker));
    for (const auto& m : options.modules) builder.module(m.path, m.type);
    KinetoEventReader reader(builder);
    JsonTraceStream stream(source);
    std::unique_ptr<Progress> progress;
    if (options.progress) progress = std::make_unique<Progress>("reading " + path, source.file_size());
    FS_RETURN_IF_ERROR(run_pipelined(
        stream, [&](std::string_view text, std::size_t readable) { reader.event(text, readable); },
        [&](std::string_view key, std::string_view raw, std::size_t readable) {
          reader.field(key, raw, readable);
        },
        [&](std::uint64_t done) {
          if (progress) progress->update(done);
        }));
    if (progress) progress->finish();
    if (stream.events() > 0 && reader.recognised() == 0) {
      return InvalidArgument(path +
                             ": a Chrome trace, but with no PyTorch profiler events (no cpu_op, kernel or "
                             "runtime events)");
    }
    if (!options.graph_capture.empty())
      FS_RETURN_IF_ERROR(read_capture(options.graph_capture, builder, options));
    // Absolute epoch timestamps (older Kineto) date the run when no baseTimeNanoseconds was given.
    if (builder.info().created_unix_ns == 0 && reader.earliest_ns() > 1'000'000'000'000'000'000LL / 1000 &&
        reader.earliest_ns() != INT64_MAX) {
      builder.info().created_unix_ns = reader.earliest_ns();
    }
    store_hash(hash, builder.info());
    return builder.finish(sink);
  }

 private:
  // The trace recorded while the run's CUDA graph was captured: its ops, modules and captured launches.
  static Status read_capture(const std::string& path, TraceBuilder& builder, const ImportOptions& options) {
    FS_ASSIGN_OR_RETURN(ByteSource source, ByteSource::open(path));
    KinetoEventReader reader(builder, /*capture=*/true);
    JsonTraceStream stream(source);
    std::unique_ptr<Progress> progress;
    if (options.progress) progress = std::make_unique<Progress>("reading " + path, source.file_size());
    FS_RETURN_IF_ERROR(run_pipelined(
        stream, [&](std::string_view text, std::size_t readable) { reader.event(text, readable); },
        [&](std::string_view key, std::string_view raw, std::size_t readable) {
          reader.field(key, raw, readable);
        },
        [&](std::uint64_t done) {
          if (progress) progress->update(done);
        }));
    if (progress) progress->finish();
    if (reader.recognised() == 0) {
      return InvalidArgument(path +
                             ": not a PyTorch profiler trace of a CUDA graph capture (no cpu_op or runtime "
                             "events)");
    }
    return {};
  }
};

}  // namespace

std::unique_ptr<Importer> make_kineto_importer() {
  return std::make_unique<KinetoImporter>();
}

}  // namespace flopscope
