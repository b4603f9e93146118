// The computation graph as the GUI draws it: node boxes, edges and nested module cluster boxes with
// positions. Built from the run's graph_node/graph_edge records (one run, or the union of two runs with
// each node's diff status) with a collapse set; positions come from a layered layout that keeps every
// module's nodes inside its cluster box (module order top to bottom, parallel branches side by side).
#pragma once

#include <QPointF>
#include <QRectF>
#include <QString>
#include <set>
#include <string>
#include <vector>

#include "gui/models/graph_status.h"
#include "gui/models/module_diff.h"
#include "db/model/run_data.h"

namespace flopscope::gui {

struct GraphLayoutNode {
  std::string label;
  std::string kind;         // op kind, or "module" for a collapsed cluster
  std::string module_path;  // the node's module (a collapsed cluster's own path)
  bool collapsed = false;   // stands for a whole collapsed module
  int member_count = 1;     // graph nodes it stands for
  DiffStatus status = DiffStatus::kSame;
  // Cost per iteration attributed to the node (ops of its module and kind, shared among nodes of that kind).
  double flops = 0;
  double time_ns = 0;
  double bytes = 0;
  QRectF rect;
};

struct GraphLayoutEdge {
  int src = -1;
  int dst = -1;
  DiffStatus status = DiffStatus::kSame;
};

struct GraphLayoutCluster {
  std::string path;
  std::string label;
  int depth = 0;
  QRectF rect;
};

struct GraphLayout {
  std::vector<GraphLayoutNode> nodes;
  std::vector<GraphLayoutEdge> edges;
  std::vector<GraphLayoutCluster> clusters;  // outer before inner
  int source_nodes = 0;                      // graph nodes before collapsing
  QRectF bounds;

  int find_node_for_module(const std::string& path) const;  // first node in that module subtree, or -1
  int find_cluster(const std::string& path) const;
};

struct GraphInput {
  const RunData* a = nullptr;
  const RunData* b = nullptr;  // diff mode: nodes only in b are added as new, nodes only in a are vanished
  const ModuleDiff* diff = nullptr;
};

// The graph before collapsing and placement: one run's graph, or the union of two with diff statuses, and
// each node's cost. Built once per session (it scans every op), off the GUI thread.
struct GraphUnionNode {
  std::string kind, label, module;
  DiffStatus status = DiffStatus::kSame;
  double flops = 0, time_ns = 0, bytes = 0;
};

struct GraphUnion {
  std::vector<GraphUnionNode> nodes;
  std::vector<std::pair<int, int>> edges;
};

GraphUnion graph_union(const GraphInput& input);

// Module paths to collapse so that at most max_nodes remain: collapses whole depths, deepest first.
std::set<std::string> default_collapsed(const GraphUnion& graph, std::size_t max_nodes = 300);

GraphLayout layout_graph(const GraphUnion& graph, const std::set<std::string>& collapsed);

}  // namespace flopscope::gui
