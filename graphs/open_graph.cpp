#include "graphs/open_graph.h"

#include <filesystem>
#include <map>

#include "analyzer/analysis/load_run.h"
#include "analyzer/summary.h"
#include "collector/torch/profile_model.h"
#include "db/model/sha256.h"
#include "graphs/extract.h"
#include "graphs/run_costs.h"
#include "graphs/trace_graph.h"

namespace flopscope::graphs {

Status complete_graph_from_source(RunData& run, const std::string& run_path) {
  if (!run.graph_nodes.empty()) return {};
  const std::string& source = run.info.source_path;
  if (source.empty()) return NotFound(run_path + ": the run names no source model");
  // A trace records what ran, not the model's graph: there is no model file to extract one from.
  const SourceKind kind = run.info.source_kind;
  if (kind == SourceKind::kKineto || kind == SourceKind::kNsys || kind == SourceKind::kNcu) {
    return NotFound(run_path +
                    ": runs imported from traces carry no computation graph (profile the TorchScript "
                    "model with `flopscope profile` to get one)");
  }
  // Anything else whose source is not a TorchScript model has no graph LibTorch could extract.
  if (!is_torchscript_model(source))
    return NotFound(run_path + ": the run's source " + source + " is not a TorchScript model");
  namespace fs = std::filesystem;
  std::error_code ec;
  // As recorded (absolute, or relative to where the tool runs); then a relative path against the folders
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
  FS_ASSIGN_OR_RETURN(ExtractedGraph g, extract_torchscript_graph(model.string(), &run));
  run.graph_nodes = std::move(g.nodes);
  run.graph_edges = std::move(g.edges);
  return {};
}

OpGraph run_op_graph(const RunData& run, const RunSummary& summary, std::string title,
                     std::size_t max_nodes) {
  OpGraph graph;
  if (run.graph_nodes.empty() && records_no_graph(run.info.source_kind)) {
    graph = trace_op_graph(run, summary, max_nodes);
  } else {
    graph = make_op_graph(run.graph_nodes, run.graph_edges, run.modules);
    attach_run_costs(graph, run);
    attach_module_costs(graph, summary);
  }
  graph.title = std::move(title);
  return graph;
}

StatusOr<OpGraph> open_op_graph(const std::string& path, RunData* run_out, std::size_t max_nodes,
                                const std::string& iteration_marker) {
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) return NotFound(path + ": no such file");
  OpGraph graph;
  if (is_torchscript_model(path)) {
    if (!iteration_marker.empty()) {
      return InvalidArgument(path + ": --iteration-marker applies to traces, not to a TorchScript model");
    }
    FS_ASSIGN_OR_RETURN(ExtractedGraph extracted, extract_torchscript_graph(path));
    graph = make_op_graph(extracted.nodes, extracted.edges, extracted.modules);
    if (run_out != nullptr) run_out->modules = extracted.modules;
  } else {
    FS_ASSIGN_OR_RETURN(
        RunData run, load_run(path, TraceOptions{.graph_capture = {}, .iteration_marker = iteration_marker}));
    // A trace's graph is drawn from what ran (trace_graph.h); it has no model to extract one from.
    const bool from_trace = records_no_graph(run.info.source_kind) && !run.ops.empty();
    if (Status s = complete_graph_from_source(run, path); !s.ok() && !from_trace) {
      return InvalidArgument(
          path +
          ": this run has no computation graph (no graph_node rows; runs captured by "
          "`flopscope profile` from a TorchScript model have one, imported traces are drawn from their ops) "
          "and none could be extracted: " +
          s.message());
    }
    graph = run_op_graph(run, summarize(run), "", max_nodes);
    if (run_out != nullptr) *run_out = std::move(run);
  }
  graph.title = std::filesystem::path(path).filename().string();
  return graph;
}

void rename_modules(OpGraph& graph, const std::function<std::string(const std::string&)>& rename) {
  for (auto& n : graph.nodes) n.module_path = rename(n.module_path);
  for (auto* table : {&graph.module_types, &graph.base_module_types}) {
    std::map<std::string, std::string> renamed;
    for (auto& [path, type] : *table) renamed[rename(path)] = std::move(type);
    *table = std::move(renamed);
  }
  for (auto* table : {&graph.module_costs, &graph.base_module_costs}) {
    std::map<std::string, NodeCost> renamed;
    for (auto& [path, cost] : *table) renamed[rename(path)] = cost;
    *table = std::move(renamed);
  }
}

}  // namespace flopscope::graphs
