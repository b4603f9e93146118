// Trace importers: one file per format behind a sniff + import interface, and a registry that picks the
// importer for a file from its first bytes. Every importer writes through TraceBuilder, so records are
// normalised and attributed the same way whatever the format.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "db/model/run_sink.h"
#include "db/model/status.h"

namespace flopscope {

struct ImportOptions {
  bool progress = true;  // draw a progress bar when stderr is a terminal
  std::string tool_version;
  std::string command_line;
  // Modules known from elsewhere (path and class, e.g. named_modules() from flopscope's Python companion):
  // created in this order, called or not, so the module table is the model's whole tree.
  std::vector<ModuleRecord> modules;
  // Kineto trace recorded while the run's CUDA graph was captured: kernels replayed from the graph are
  // attributed to the ops and modules of their captured launches (PyTorch profiler traces only).
  std::string graph_capture;
  // --iteration-marker: a regular expression; each outermost host range whose name matches is one iteration
  // (Kineto and Nsight Systems traces; see TraceBuilder::set_iteration_marker).
  std::string iteration_marker;
};

class Importer {
 public:
  virtual ~Importer() = default;
  // Short name used in messages and --format ("kineto", "nsys", "ncu").
  virtual std::string_view name() const = 0;
  // How sure the importer is that a file starting with `head` (decompressed, up to a few KiB) is its
  // format: 0 = not mine, 100 = certain. `path` is only a hint (extension).
  virtual int sniff(std::string_view head, const std::string& path) const = 0;
  // Imports a whole file into `sink` (begin .. finish). Bad records are counted as quality issues; a
  // non-OK status means the file as a whole could not be read.
  virtual Status import(const std::string& path, RunSink& sink, const ImportOptions& options) const = 0;
};

// All built-in importers.
const std::vector<std::unique_ptr<Importer>>& importers();

// The first bytes of a file, decompressed when it is gzip. Errors name the file.
StatusOr<std::string> read_head(const std::string& path, std::size_t max_bytes = 8192);
// A UTF-8 byte order mark: skipped at the start of a text input.
inline constexpr std::string_view kUtf8Bom = "\xEF\xBB\xBF";

// The importer most confident about `path`; a one-line error naming the file when none is.
StatusOr<const Importer*> find_importer(const std::string& path);

// Sniffs and imports `path` into `sink`. A graph capture must be a PyTorch profiler trace, and so must
// `path`.
Status import_trace(const std::string& path, RunSink& sink, const ImportOptions& options = {});

// A one-line error when options.graph_capture is given but `importer` or the capture file cannot use it.
Status check_graph_capture(const Importer& importer, const std::string& path, const ImportOptions& options);

}  // namespace flopscope
