// Built when the TorchScript graph extractor (graphs/, LibTorch) is.
#include <filesystem>

#include "db/model/sha256.h"
#include "graphs/extract.h"
#include "gui/models/run_graph.h"

namespace flopscope::gui {

Status complete_graph_from_source(RunData& run, const std::string& run_path) {
  if (!run.graph_nodes.empty()) return {};
  const std::string& source = run.info.source_path;
  if (source.empty()) return NotFound(run_path + ": the run names no source model");
  namespace fs = std::filesystem;
  std::error_code ec;
  // As recorded (absolute, or relative to where the app runs); then a relative path against the folders
  // above the database (profile ran from the repository root, the database sits in out/demo/); then the
  // file name beside the database.
  fs::path model = source;
  if (!fs::exists(model, ec) && model.is_relative()) {
    fs::path dir = fs::absolute(fs::path(run_path), ec).parent_path();
    for (int up = 0; up < 5 && !dir.empty() && !fs::exists(model, ec); ++up, dir = dir.parent_path())
      model = dir / source;
  }
  if (!fs::exists(model, ec)) model = fs::path(run_path).parent_path() / fs::path(source).filename();
  if (!fs::exists(model, ec)) return NotFound(run_path + ": source model " + source + " not found");
  if (!run.info.source_sha256.empty()) {
    FS_ASSIGN_OR_RETURN(std::string digest, sha256_file(model.string()));
    if (digest != run.info.source_sha256)
      return InvalidArgument(model.string() + ": not the model this run was recorded from (SHA-256 differs)");
  }
  FS_ASSIGN_OR_RETURN(graphs::ExtractedGraph g, graphs::extract_torchscript_graph(model.string(), &run));
  run.graph_nodes = std::move(g.nodes);
  run.graph_edges = std::move(g.edges);
  return {};
}

}  // namespace flopscope::gui
