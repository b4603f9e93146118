#include "analyzer/importers/importer.h"

#include <algorithm>

#include "analyzer/importers/byte_source.h"
#include "analyzer/importers/importer_util.h"
#include "db/model/sha256.h"

namespace flopscope {

const std::vector<std::unique_ptr<Importer>>& importers() {
  static const auto all = [] {
    std::vector<std::unique_ptr<Importer>> v;
    v.push_back(make_kineto_importer());
    v.push_back(make_nsys_importer());
    v.push_back(make_ncu_importer());
    return v;
  }();
  return all;
}

StatusOr<std::string> read_head(const std::string& path, std::size_t max_bytes) {
  FS_ASSIGN_OR_RETURN(ByteSource source, ByteSource::open(path));
  std::string head(max_bytes, '\0');
  std::size_t got = 0;
  while (got < max_bytes) {
    auto n = source.read(head.data() + got, max_bytes - got);
    if (!n.ok()) {
      if (got > 0) break;  // a truncated stream still has a recognisable head; the import reports it
      return n.status();
    }
    if (*n == 0) break;
    got += *n;
  }
  head.resize(got);
  return head;
}

namespace {

// What a file no importer claims looks like, for the error line.
std::string_view looks_like(std::string_view head) {
  const std::size_t i = head.find_first_not_of(" \t\r\n");
  if (i == std::string_view::npos) return "blank text";
  const std::string_view rest = head.substr(i);
  if (std::any_of(rest.begin(), rest.end(), [](char c) { return c == '\0'; })) return "binary data";
  if (rest.starts_with("#") || rest.starts_with("|") || rest.starts_with("```") || rest.starts_with("---\n"))
    return "Markdown text";
  if (rest.starts_with("<")) return "HTML or XML";
  if (rest.starts_with("{") || rest.starts_with("[")) return "JSON that is not a trace";
  return "text";
}

}  // namespace

StatusOr<const Importer*> find_importer(const std::string& path) {
  FS_ASSIGN_OR_RETURN(std::string head, read_head(path));
  if (head.empty()) return InvalidArgument(path + ": empty file");
  // Editors on Windows start UTF-8 text with a byte order mark; the importers skip it too.
  if (head.starts_with(kUtf8Bom)) head.erase(0, kUtf8Bom.size());
  const Importer* best = nullptr;
  int best_score = 0;
  for (const auto& importer : importers()) {
    int score = importer->sniff(head, path);
    if (score > best_score) {
      best_score = score;
      best = importer.get();
    }
  }
  if (best == nullptr) {
    return InvalidArgument(path + ": unknown format: looks like " + std::string(looks_like(head)) +
                           " (expected a PyTorch profiler JSON trace, an Nsight Systems SQLite export or an "
                           "Nsight Compute CSV)");
  }
  return best;
}

Status check_graph_capture(const Importer& importer, const std::string& path, const ImportOptions& options) {
  if (options.graph_capture.empty()) return {};
  if (importer.name() != "kineto") {
    return InvalidArgument(path + ": --graph-capture applies to PyTorch profiler traces, not " +
                           std::string(importer.name()) + " files");
  }
  FS_ASSIGN_OR_RETURN(const Importer* capture, find_importer(options.graph_capture));
  if (capture->name() != "kineto") {
    return InvalidArgument(options.graph_capture + ": a graph capture must be a PyTorch profiler trace");
  }
  return {};
}

Status import_trace(const std::string& path, RunSink& sink, const ImportOptions& options) {
  FS_ASSIGN_OR_RETURN(const Importer* importer, find_importer(path));
  FS_RETURN_IF_ERROR(check_graph_capture(*importer, path, options));
  return importer->import(path, sink, options);
}

RunInfo make_run_info(const std::string& path, SourceKind kind, const ImportOptions& options) {
  RunInfo info;
  info.tool_version = options.tool_version;
  info.source_kind = kind;
  info.source_path = path;
  info.command_line = options.command_line;
  return info;
}

std::future<StatusOr<std::string>> hash_file_async(const std::string& path) {
  return std::async(std::launch::async, [path] { return sha256_file(path); });
}

void store_hash(std::future<StatusOr<std::string>>& hash, RunInfo& info) {
  if (!hash.valid()) return;
  auto digest = hash.get();
  if (digest.ok()) info.source_sha256 = *digest;
}

}  // namespace flopscope
