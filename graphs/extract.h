// Extraction of the computation graph from a TorchScript archive, behind a LibTorch-free interface.
// Where LibTorch is built, extract_plugin.cpp forwards to libflopscope-torch.so, which runs
// torchscript_extract.cpp (the one LibTorch translation unit of graphs/); else a stub says it is not built.
#pragma once

#include <string>
#include <vector>

#include "db/model/records.h"
#include "db/model/run_data.h"
#include "db/model/status.h"

namespace flopscope::graphs {

struct ExtractedGraph {
  // named_modules() order; [0] is the root (path ""), ids are indices, parent ids set.
  std::vector<ModuleRecord> modules;
  // The inlined forward graph without constants, attribute reads and list plumbing: ids are indices;
  // "input" nodes for the forward's arguments (not self), one "output" node.
  std::vector<GraphNode> nodes;
  std::vector<GraphEdge> edges;
};

// Loads `model_path` with torch::jit::load and extracts forward's inlined graph. Each node carries its op
// kind and module path (ModuleList/Sequential indices recovered, the paths the report uses). When
// `profiled` is a run of the same model, output shapes and edge labels come from its first iteration
// (matched by module path + op kind + ordinal). Errors name the file, also when the LibTorch plugin is
// missing ("M.pt: LibTorch support not available (...)").
StatusOr<ExtractedGraph> extract_torchscript_graph(const std::string& model_path,
                                                   const RunData* profiled = nullptr);

// Fills output shapes and edge labels from a profiled run: an edge's label is the shape its consumer saw at
// argument edge_arg[k] of its matching call (first iteration), and a node's output shape is the label of
// its first labelled out-edge. input_count[i] is node i's number of graph inputs: a call recorded with
// more arguments than that is aligned from its last argument. Torch-free, so tests run without LibTorch.
void apply_profiled_shapes(std::vector<GraphNode>& nodes, std::vector<GraphEdge>& edges,
                           const std::vector<int>& edge_arg, const std::vector<int>& input_count,
                           const RunData& run);

// The shapes of what forward() returned (`outputs`, in order, from the run's first iteration) on the edges
// into the graph's output node and as the output shapes of the nodes they come from, where no consumer
// recorded them; only nodes that ran in that iteration. One returned tensor: every such edge; several: one
// edge per tensor, else nothing is guessed.
void apply_output_shapes(std::vector<GraphNode>& nodes, std::vector<GraphEdge>& edges,
                         const std::vector<OpArg>& outputs, const RunData& run);

// "float32[1,64,128]" for a tensor argument, "" otherwise.
std::string shape_text(const OpArg& arg);

}  // namespace flopscope::graphs
