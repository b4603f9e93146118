#include "graphs/graph_model.h"

#include <unordered_map>

#include "db/model/module_path.h"

namespace flopscope::graphs {

std::string OpNode::identity() const {
  return module_path + "|" + kind + "#" + std::to_string(ordinal);
}

int module_depth(const std::string& path) {
  return path_depth(path);
}

std::string module_prefix(const std::string& path, int depth) {
  return std::string(path_prefix(path, depth));
}

std::string parent_module(const std::string& path) {
  return std::string(path_parent(path));
}

OpGraph make_op_graph(const std::vector<GraphNode>& nodes, const std::vector<GraphEdge>& edges,
                      const std::vector<ModuleRecord>& modules) {
  OpGraph g;
  for (const auto& m : modules) g.module_types[m.path] = m.type;
  std::unordered_map<Id, int> index;
  std::map<std::pair<std::string, std::string>, int> ordinals;
  g.nodes.reserve(nodes.size());
  for (const auto& n : nodes) {
    OpNode op;
    op.kind = n.kind;
    op.label = n.label;
    op.module_path = n.module_path;
    op.output_shapes = n.output_shapes;
    op.ordinal = ordinals[{n.module_path, n.kind}]++;
    index[n.id] = static_cast<int>(g.nodes.size());
    g.nodes.push_back(std::move(op));
  }
  for (const auto& e : edges) {
    auto s = index.find(e.src);
    auto d = index.find(e.dst);
    if (s == index.end() || d == index.end()) continue;
    g.edges.push_back({s->second, d->second, e.label, DiffStatus::kUnchanged});
  }
  return g;
}

}  // namespace flopscope::graphs
