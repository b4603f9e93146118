#include "gui/models/graph_layout.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <numeric>
#include <unordered_map>
#include <unordered_set>

#include "db/model/module_path.h"
#include "graphs/graph_diff.h"

namespace flopscope::gui {

namespace {

constexpr double kNodeH = 30, kPad = 12, kHeader = 20, kGapX = 18, kGapY = 26;

// Dotted paths through the core's helpers (db/model/module_path.h).
std::string parent_path(const std::string& p) { return std::string(path_parent(p)); }
std::string last_part(const std::string& p) { return std::string(path_leaf(p)); }

using UNode = GraphUnionNode;
using UGraph = GraphUnion;

struct KindCost {
  double flops = 0, time_ns = 0, bytes = 0;
  int nodes = 0;
};

// Cost per iteration of the outermost ops of each (module, op kind), shared among that kind's graph nodes.
std::unordered_map<std::string, KindCost> kind_costs(const RunData& run) {
  if (run.graph_nodes.empty()) return {};
  std::unordered_map<Id, std::string> paths;
  for (const auto& m : run.modules) paths[m.id] = m.path;
  std::unordered_map<std::string, KindCost> costs;
  int iterations = 0;
  for (const auto& op : run.ops) {
    iterations = std::max(iterations, op.iteration + 1);
    if (op.depth != 0) continue;
    auto& c = costs[paths[op.module_id] + '\x1f' + op.name];
    c.time_ns += static_cast<double>(op.duration_ns);
    if (counts_toward_totals(op)) {
      c.flops += op.flops;
      c.bytes += op.bytes_read + op.bytes_written;
    }
  }
  for (const auto& n : run.graph_nodes) {
    auto it = costs.find(n.module_path + '\x1f' + n.kind);
    if (it != costs.end()) it->second.nodes += 1;
  }
  for (auto& [key, c] : costs) {
    double div = std::max(iterations, 1) * std::max(c.nodes, 1);
    c.flops /= div;
    c.time_ns /= div;
    c.bytes /= div;
  }
  return costs;
}

// Stable identity of a graph node across runs: module path, op kind and occurrence within that pair.
std::vector<std::string> node_keys(const RunData& run) {
  std::unordered_map<std::string, int> seen;
  std::vector<std::string> keys;
  keys.reserve(run.graph_nodes.size());
  for (const auto& n : run.graph_nodes) {
    std::string base = n.module_path + '\x1f' + n.kind;
    keys.push_back(base + '#' + std::to_string(seen[base]++));
  }
  return keys;
}

void add_run(UGraph& g, const RunData& run, const std::vector<std::string>& keys,
             std::unordered_map<std::string, int>& index_of_key, DiffStatus status_if_added) {
  auto costs = kind_costs(run);
  std::unordered_map<Id, int> index_of_id;
  for (std::size_t i = 0; i < run.graph_nodes.size(); ++i) {
    const auto& n = run.graph_nodes[i];
    auto found = index_of_key.find(keys[i]);
    if (found != index_of_key.end()) {
      index_of_id[n.id] = found->second;
      continue;
    }
    UNode u;
    u.kind = n.kind;
    u.label = n.label.empty() ? n.kind : n.label;
    u.module = n.module_path;
    u.status = status_if_added;
    auto c = costs.find(n.module_path + '\x1f' + n.kind);
    if (c != costs.end()) {
      u.flops = c->second.flops;
      u.time_ns = c->second.time_ns;
      u.bytes = c->second.bytes;
    }
    int idx = static_cast<int>(g.nodes.size());
    g.nodes.push_back(std::move(u));
    index_of_key.emplace(keys[i], idx);
    index_of_id[n.id] = idx;
  }
  for (const auto& e : run.graph_edges) {
    auto s = index_of_id.find(e.src), d = index_of_id.find(e.dst);
    if (s != index_of_id.end() && d != index_of_id.end()) g.edges.emplace_back(s->second, d->second);
  }
}


// The outermost collapsed module containing `module`, or "" with found=false.
std::pair<bool, std::string> collapsed_ancestor(const std::string& module, const std::set<std::string>& collapsed) {
  if (collapsed.empty() || module.empty()) return {false, {}};
  std::size_t pos = 0;
  while (true) {
    pos = module.find('.', pos);
    std::string prefix = pos == std::string::npos ? module : module.substr(0, pos);
    if (collapsed.count(prefix)) return {true, prefix};
    if (pos == std::string::npos) return {false, {}};
    ++pos;
  }
}

std::size_t visible_count(const UGraph& g, const std::set<std::string>& collapsed) {
  std::set<std::string> reps;
  std::size_t plain = 0;
  for (const auto& n : g.nodes) {
    auto [hit, rep] = collapsed_ancestor(n.module, collapsed);
    if (hit)
      reps.insert(rep);
    else
      ++plain;
  }
  return plain + reps.size();
}

struct Box {
  bool is_cluster = false;
  int index = 0;  // visible node index or cluster index
  int min_rank = 0, max_rank = 0;
  bool main = true;  // holds main-flow nodes (then the ranks are theirs only)
  QSizeF size;
  QPointF pos;  // relative to the parent cluster's top-left
};

struct ClusterBuild {
  std::string path;
  std::vector<int> clusters;
  std::vector<int> nodes;
  std::vector<Box> boxes;
  int min_rank = 0, max_rank = 0;
  bool main = false;
  QSizeF size;
};

}  // namespace

GraphUnion graph_union(const GraphInput& in) {
  UGraph g;
  if (!in.a) return g;
  std::unordered_map<std::string, int> index_of_key;
  auto keys_a = node_keys(*in.a);
  add_run(g, *in.a, keys_a, index_of_key, DiffStatus::kSame);
  if (in.b) {
    auto keys_b = node_keys(*in.b);
    std::unordered_set<std::string> in_b(keys_b.begin(), keys_b.end());
    for (std::size_t i = 0; i < keys_a.size(); ++i) {
      auto& n = g.nodes[index_of_key[keys_a[i]]];
      if (!in_b.count(keys_a[i])) {
        n.status = DiffStatus::kVanished;
      }
    }
    // A node in both runs changed when its own cost changed (not merely its module's).
    auto costs_b = kind_costs(*in.b);
    for (std::size_t i = 0; i < keys_b.size(); ++i) {
      auto found = index_of_key.find(keys_b[i]);
      if (found == index_of_key.end()) continue;
      auto& n = g.nodes[static_cast<std::size_t>(found->second)];
      auto c = costs_b.find(in.b->graph_nodes[i].module_path + '\x1f' + in.b->graph_nodes[i].kind);
      double fb = c == costs_b.end() ? 0 : c->second.flops, bb = c == costs_b.end() ? 0 : c->second.bytes;
      // The graphs library's threshold, as in `flopscope graph --diff`.
      using graphs::CostMetric;
      if (graphs::moved_by_more_than(n.flops, fb, graphs::changed_threshold(CostMetric::kFlops)) ||
          graphs::moved_by_more_than(n.bytes, bb, graphs::changed_threshold(CostMetric::kBytes)))
        n.status = DiffStatus::kChanged;
    }
    add_run(g, *in.b, keys_b, index_of_key, DiffStatus::kNew);
  }
  std::sort(g.edges.begin(), g.edges.end());
  g.edges.erase(std::unique(g.edges.begin(), g.edges.end()), g.edges.end());
  return g;
}

int GraphLayout::find_node_for_module(const std::string& path) const {
  for (std::size_t i = 0; i < nodes.size(); ++i) {
    const auto& m = nodes[i].module_path;
    if (m == path || path.empty() || (m.size() > path.size() && m.compare(0, path.size(), path) == 0 && m[path.size()] == '.'))
      return static_cast<int>(i);
  }
  // A module inside a collapsed cluster is drawn as that cluster's node.
  for (std::size_t i = 0; i < nodes.size(); ++i) {
    const auto& m = nodes[i].module_path;
    if (nodes[i].collapsed && path.size() > m.size() && path.compare(0, m.size(), m) == 0 && path[m.size()] == '.')
      return static_cast<int>(i);
  }
  return -1;
}

int GraphLayout::find_cluster(const std::string& path) const {
  for (std::size_t i = 0; i < clusters.size(); ++i)
    if (clusters[i].path == path) return static_cast<int>(i);
  return -1;
}

std::set<std::string> default_collapsed(const GraphUnion& g, std::size_t max_nodes) {
  std::set<std::string> collapsed;
  std::set<std::string> modules;
  int max_depth = 0;
  for (const auto& n : g.nodes)
    for (std::string p = n.module; !p.empty(); p = parent_path(p)) {
      modules.insert(p);
      max_depth = std::max(max_depth, path_depth(p));
    }
  for (int d = max_depth; d >= 1 && visible_count(g, collapsed) > max_nodes; --d) {
    collapsed.clear();
    for (const auto& m : modules)
      if (path_depth(m) == d) collapsed.insert(m);
  }
  return collapsed;
}

GraphLayout layout_graph(const GraphUnion& g, const std::set<std::string>& collapsed) {
  GraphLayout out;
  out.source_nodes = static_cast<int>(g.nodes.size());

  // Visible nodes: plain nodes, plus one node per collapsed module that has members.
  std::vector<int> visible_of(g.nodes.size());
  std::map<std::string, int> collapsed_node;
  std::vector<std::string> cluster_of;  // per visible node: the cluster it sits in
  for (std::size_t i = 0; i < g.nodes.size(); ++i) {
    const auto& n = g.nodes[i];
    auto [hit, rep] = collapsed_ancestor(n.module, collapsed);
    if (!hit) {
      visible_of[i] = static_cast<int>(out.nodes.size());
      out.nodes.push_back({n.label, n.kind, n.module, false, 1, n.status, n.flops, n.time_ns, n.bytes, {}});
      cluster_of.push_back(n.module);
      continue;
    }
    auto [it, inserted] = collapsed_node.try_emplace(rep, static_cast<int>(out.nodes.size()));
    if (inserted) {
      out.nodes.push_back({last_part(rep), "module", rep, true, 0, n.status, 0, 0, 0, {}});
      cluster_of.push_back(parent_path(rep));
    }
    auto& v = out.nodes[it->second];
    if (v.member_count > 0 && v.status != n.status) v.status = DiffStatus::kChanged;
    v.member_count += 1;
    v.flops += n.flops;
    v.time_ns += n.time_ns;
    v.bytes += n.bytes;
    visible_of[i] = it->second;
  }
  for (auto& n : out.nodes)
    if (n.collapsed) n.label += " (" + std::to_string(n.member_count) + " ops)";

  std::set<std::pair<int, int>> seen;
  for (auto [s, d] : g.edges) {
    int vs = visible_of[s], vd = visible_of[d];
    if (vs == vd || !seen.insert({vs, vd}).second) continue;
    DiffStatus st = DiffStatus::kSame;
    if (out.nodes[vs].status == DiffStatus::kVanished || out.nodes[vd].status == DiffStatus::kVanished)
      st = DiffStatus::kVanished;
    else if (out.nodes[vs].status == DiffStatus::kNew || out.nodes[vd].status == DiffStatus::kNew)
      st = DiffStatus::kNew;
    out.edges.push_back({vs, vd, st});
  }

  // Longest-path ranks (Kahn); nodes on a cycle keep the rank they reached.
  const std::size_t n = out.nodes.size();
  std::vector<int> rank(n, 0), indeg(n, 0);
  std::vector<std::vector<int>> succ(n);
  for (const auto& e : out.edges) {
    succ[e.src].push_back(e.dst);
    indeg[e.dst]++;
  }
  std::vector<int> queue;
  for (std::size_t i = 0; i < n; ++i)
    if (!indeg[i]) queue.push_back(static_cast<int>(i));
  for (std::size_t qi = 0; qi < queue.size(); ++qi)
    for (int d : succ[queue[qi]]) {
      rank[d] = std::max(rank[d], rank[queue[qi]] + 1);
      if (--indeg[d] == 0) queue.push_back(d);
    }
  // Pull every node down to just above its first consumer (in reverse topological order), so side
  // inputs such as aten::arange chains sit beside their use rather than at the top of the graph.
  for (auto it = queue.rbegin(); it != queue.rend(); ++it) {
    const auto i = static_cast<std::size_t>(*it);
    if (succ[i].empty()) continue;
    int first = rank[static_cast<std::size_t>(succ[i][0])];
    for (int d : succ[i]) first = std::min(first, rank[static_cast<std::size_t>(d)]);
    rank[i] = std::max(rank[i], first - 1);
  }

  // The main flow: nodes reachable from the graph's inputs (kind "input", else the shallowest sources).
  // Side chains (constants, position tables) may start many ranks early; only main nodes decide where a
  // module sits, or every layer would be pushed beside the previous one.
  std::vector<char> main_flow(n, 0);
  {
    std::vector<int> sources;
    int shallowest = 1 << 30;
    bool has_input_kind = false;
    for (std::size_t i = 0; i < n; ++i) has_input_kind |= out.nodes[i].kind == "input";
    std::vector<int> in_count(n, 0);
    for (const auto& e : out.edges) in_count[static_cast<std::size_t>(e.dst)]++;
    for (std::size_t i = 0; i < n; ++i)
      if (!in_count[i] && !has_input_kind) shallowest = std::min(shallowest, path_depth(out.nodes[i].module_path));
    for (std::size_t i = 0; i < n; ++i)
      if (!in_count[i] && (has_input_kind ? out.nodes[i].kind == "input" : path_depth(out.nodes[i].module_path) == shallowest))
        sources.push_back(static_cast<int>(i));
    for (int src : sources) main_flow[static_cast<std::size_t>(src)] = 1;
    for (std::size_t qi = 0; qi < sources.size(); ++qi)
      for (int d : succ[static_cast<std::size_t>(sources[qi])])
        if (!main_flow[static_cast<std::size_t>(d)]) {
          main_flow[static_cast<std::size_t>(d)] = 1;
          sources.push_back(d);
        }
  }

  // Cluster tree.
  std::vector<ClusterBuild> cl;
  std::map<std::string, int> cl_index;
  auto ensure = [&](const std::string& path, auto&& self) -> int {
    auto it = cl_index.find(path);
    if (it != cl_index.end()) return it->second;
    int idx = static_cast<int>(cl.size());
    cl.push_back({path, {}, {}, {}, 0, 0, false, {}});
    cl_index[path] = idx;
    if (!path.empty()) {
      int parent = self(parent_path(path), self);
      cl[parent].clusters.push_back(idx);
    }
    return idx;
  };
  ensure("", ensure);
  for (std::size_t i = 0; i < n; ++i) cl[ensure(cluster_of[i], ensure)].nodes.push_back(static_cast<int>(i));

  // Sizes bottom-up: children in rank order; children whose rank ranges overlap share a row.
  auto measure = [&](int c, auto&& self) -> void {
    auto& k = cl[c];
    std::vector<Box> boxes;
    for (int child : k.clusters) {
      self(child, self);
      boxes.push_back({true, child, cl[child].min_rank, cl[child].max_rank, cl[child].main, cl[child].size, {}});
    }
    for (int v : k.nodes) {
      double w = std::max(70.0, 7.0 * static_cast<double>(out.nodes[v].label.size()) + 18);
      boxes.push_back({false, v, rank[v], rank[v], main_flow[static_cast<std::size_t>(v)] != 0, QSizeF(w, kNodeH), {}});
    }
    std::stable_sort(boxes.begin(), boxes.end(), [](const Box& x, const Box& y) {
      return x.min_rank != y.min_rank ? x.min_rank < y.min_rank : x.max_rank < y.max_rank;
    });
    // Columns by interval colouring of rank ranges (parallel branches side by side); within a column,
    // items stack, and nothing starts above an item of an earlier rank, so edges point down.
    struct Column {
      int last_max = -1;
      double y = 0, width = 0, x = 0;
    };
    std::vector<Column> columns;
    std::vector<int> column_of(boxes.size());
    const double pad = k.path.empty() ? 0 : kPad;
    const double top = k.path.empty() ? 0 : kHeader + kPad;
    int ranks = 1;
    for (const auto& b : boxes) ranks = std::max(ranks, b.max_rank + 2);
    std::vector<double> floor_tree(static_cast<std::size_t>(ranks) + 1, top);  // Fenwick prefix max of bottoms
    auto floor_below = [&](int below) {  // max bottom of items whose max_rank < below
      double f = top;
      for (int i = below; i > 0; i -= i & -i) f = std::max(f, floor_tree[static_cast<std::size_t>(i)]);
      return f;
    };
    auto add_bottom = [&](int max_rank, double bottom) {
      for (int i = max_rank + 1; i <= ranks; i += i & -i)
        floor_tree[static_cast<std::size_t>(i)] = std::max(floor_tree[static_cast<std::size_t>(i)], bottom);
    };
    double height = top;
    for (std::size_t i = 0; i < boxes.size(); ++i) {
      auto& b = boxes[i];
      std::size_t col = 0;
      while (col < columns.size() && columns[col].last_max >= b.min_rank) ++col;
      if (col == columns.size()) columns.push_back({-1, top, 0, 0});
      double floor = floor_below(b.min_rank);
      double y = std::max(columns[col].y, floor > top ? floor + kGapY : top);
      b.pos.setY(y);
      columns[col].y = y + b.size.height() + kGapY;
      columns[col].last_max = b.max_rank;
      columns[col].width = std::max(columns[col].width, b.size.width());
      column_of[i] = static_cast<int>(col);
      add_bottom(b.max_rank, y + b.size.height());
      height = std::max(height, y + b.size.height());
    }
    double x = pad;
    for (auto& column : columns) {
      column.x = x;
      x += column.width + kGapX;
    }
    double width = columns.empty() ? 0 : x - kGapX - pad;
    for (std::size_t i = 0; i < boxes.size(); ++i) {
      const auto& column = columns[static_cast<std::size_t>(column_of[i])];
      boxes[i].pos.setX(column.x + (column.width - boxes[i].size.width()) / 2);
    }
    k.size = QSizeF(width + 2 * pad, std::max(height + pad, kHeader + 2 * kPad));
    k.main = false;
    for (const auto& b : boxes) k.main |= b.main;
    bool first = true;
    for (const auto& b : boxes) {
      if (k.main && !b.main) continue;
      k.min_rank = first ? b.min_rank : std::min(k.min_rank, b.min_rank);
      k.max_rank = first ? b.max_rank : std::max(k.max_rank, b.max_rank);
      first = false;
    }
    k.boxes = std::move(boxes);
  };
  measure(0, measure);

  // Absolute positions top-down; clusters are recorded outer before inner.
  auto place = [&](int c, QPointF origin, auto&& self) -> void {
    const auto& k = cl[c];
    if (!k.path.empty())
      out.clusters.push_back({k.path, last_part(k.path), path_depth(k.path), QRectF(origin, k.size)});
    for (const auto& b : k.boxes) {
      QPointF p = origin + b.pos;
      if (b.is_cluster)
        self(b.index, p, self);
      else
        out.nodes[b.index].rect = QRectF(p, b.size);
    }
  };
  place(0, QPointF(0, 0), place);
  out.bounds = QRectF(QPointF(0, 0), cl[0].size);
  return out;
}

}  // namespace flopscope::gui
