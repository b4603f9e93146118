#include "analyzer/importers/weight_paths.h"

#include <algorithm>
#include <climits>
#include <functional>
#include <map>
#include <set>
#include <string_view>
#include <tuple>
#include <unordered_map>
#include <unordered_set>

#include "db/model/module_path.h"

namespace flopscope {
namespace {

using Shape = std::vector<std::int64_t>;
using ShapeSet = std::set<Shape>;

bool is_number(std::string_view s) {
  return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
}

std::string join(const std::string& a, const std::string& b) {
  return a.empty() ? b : a + "." + b;
}

// True when `segment` was made from the class name as module_scopes.h does: "Linear" or "Linear_3".
bool class_named(std::string_view segment, std::string type) {
  if (type.empty()) return false;
  std::replace(type.begin(), type.end(), '.', '_');
  if (segment == type) return true;
  return segment.size() > type.size() + 1 && segment.starts_with(type) && segment[type.size()] == '_' &&
         is_number(segment.substr(type.size() + 1));
}

bool container_class(std::string_view type) {
  return type.find("Sequential") != std::string_view::npos || type.ends_with("ModuleList") ||
         type.ends_with("ModuleDict");
}

// Input positions that hold a module's own tensors in the ops torch.nn modules call.
const std::vector<int>* parameter_positions(std::string_view op) {
  static const std::unordered_map<std::string_view, std::vector<int>> table = {
      {"aten::linear", {1, 2}},           {"aten::embedding", {0}},
      {"aten::layer_norm", {2, 3}},       {"aten::native_layer_norm", {2, 3}},
      {"aten::group_norm", {2, 3}},       {"aten::rms_norm", {2}},
      {"aten::conv1d", {1, 2}},           {"aten::conv2d", {1, 2}},
      {"aten::conv3d", {1, 2}},           {"aten::convolution", {1, 2}},
      {"aten::_convolution", {1, 2}},     {"aten::conv_transpose1d", {1, 2}},
      {"aten::conv_transpose2d", {1, 2}}, {"aten::conv_transpose3d", {1, 2}},
      {"aten::batch_norm", {1, 2, 3, 4}}, {"aten::instance_norm", {1, 2, 3, 4}},
  };
  auto it = table.find(op);
  return it == table.end() ? nullptr : &it->second;
}

std::string shape_text(const Shape& s) {
  std::string out = "[";
  for (std::size_t i = 0; i < s.size(); ++i) out += (i ? "," : "") + std::to_string(s[i]);
  return out + "]";
}

// The weights file's names as a module tree: every dotted prefix of a tensor name is a module.
struct AttrTree {
  struct Node {
    std::string path;
    int parent = -1;
    std::vector<int> children;         // registration (file) order; numeric items by index
    std::vector<std::string> tensors;  // subtree: "relative.name:[shape]"
    ShapeSet shapes;                   // subtree
    std::string signature;             // sorted tensors: equal for look-alike modules
    bool own_tensors = false;
    bool list = false;  // only numeric children and no tensors of its own: a ModuleList / Sequential
  };
  std::vector<Node> nodes{Node{}};
  std::unordered_map<std::string, int> by_path{{"", 0}};

  int node(const std::string& path) {
    if (auto it = by_path.find(path); it != by_path.end()) return it->second;
    int parent = node(std::string(path_parent(path)));
    int id = static_cast<int>(nodes.size());
    nodes.push_back({});
    nodes.back().path = path;
    nodes.back().parent = parent;
    nodes[static_cast<std::size_t>(parent)].children.push_back(id);
    by_path.emplace(path, id);
    return id;
  }

  explicit AttrTree(const WeightsReport& weights) {
    for (const auto& t : weights.tensors) {
      int owner = node(std::string(path_parent(t.name)));
      nodes[static_cast<std::size_t>(owner)].own_tensors = true;
      for (int a = owner; a >= 0; a = nodes[static_cast<std::size_t>(a)].parent) {
        auto& n = nodes[static_cast<std::size_t>(a)];
        std::string rel = n.path.empty() ? t.name : t.name.substr(n.path.size() + 1);
        n.tensors.push_back(rel + ":" + shape_text(t.shape));
        n.shapes.insert(t.shape);
      }
    }
    for (auto& n : nodes) {
      std::vector<std::string> sorted = n.tensors;
      std::sort(sorted.begin(), sorted.end());
      for (const auto& s : sorted) n.signature += s + ";";
      bool all_numeric = !n.children.empty();
      for (int c : n.children)
        all_numeric = all_numeric && is_number(path_leaf(nodes[static_cast<std::size_t>(c)].path));
      n.list = all_numeric && !n.own_tensors;
      if (all_numeric) {
        std::stable_sort(n.children.begin(), n.children.end(), [&](int x, int y) {
          auto a = path_leaf(nodes[static_cast<std::size_t>(x)].path);
          auto b = path_leaf(nodes[static_cast<std::size_t>(y)].path);
          return a.size() != b.size() ? a.size() < b.size() : a < b;
        });
      }
    }
  }

  // Attribute children of `a`, and the items of its list-like children (recursively), in order.
  void candidates(int a, std::vector<int>& out) const {
    for (int c : nodes[static_cast<std::size_t>(a)].children) {
      out.push_back(c);
      if (nodes[static_cast<std::size_t>(c)].list) candidates(c, out);
    }
  }
};

struct TraceNode {
  int parent = -1;
  std::vector<int> children;
  ShapeSet seen;        // tensor shapes its ops (subtree) took
  ShapeSet parameters;  // of those, in parameter positions
  std::int64_t first = INT64_MAX;
  int depth = 0;
};

enum class Outcome { kPending, kMapped, kNoTensors, kAmbiguous };

std::string list_text(const std::vector<std::string>& items) {
  constexpr std::size_t kShown = 30;
  std::string out;
  for (std::size_t i = 0; i < items.size() && i < kShown; ++i) out += (i ? ", " : "") + items[i];
  if (items.size() > kShown) out += ", ... " + std::to_string(items.size() - kShown) + " more";
  return out;
}

// Names a run's class-named modules after the weights file's attribute paths, in steps: the trace's module
// tree with the shapes its ops took, then each module's children from the parent down, then the modules
// kept, then the tensors' owners.
class PathMapper {
 public:
  PathMapper(RunData& run, const WeightsReport& weights)
      : run_(run),
        weights_(weights),
        attrs_(weights),
        registration_order_(weights.format == "torch.save" || weights.format == "torchscript"),
        n_(run.modules.size()),
        root_virtual_(static_cast<int>(n_)),
        root_(root_virtual_),
        nodes_(n_ + 1),
        final_path_(n_ + 1),
        attr_of_(n_ + 1, -1),
        outcome_(n_ + 1, Outcome::kPending),
        reason_(n_ + 1) {}

  WeightPathResult map(const std::string& weights_path) {
    build_trace_tree();
    attr_of_[at(root_)] = 0;
    outcome_[at(root_)] = Outcome::kMapped;
    for (int t : order_) name_children(t);  // parents before children
    name_kept();
    place_tensors();
    note_quality(weights_path);
    return result_;
  }

 private:
  // Class-named children of one module, matched to attribute modules by the shapes of their ops.
  struct Match {
    std::vector<int> by_class;              // the children to match
    std::vector<int> cands;                 // attribute modules free for them
    std::vector<std::vector<int>> members;  // look-alike groups, members in candidate order
    std::unordered_map<int, int> group;     // candidate -> its group
    std::vector<std::set<int>> fit_groups;  // per child: the groups it fits
    std::vector<int> assigned;              // per child: its group, -1 none
  };

  static std::size_t at(int i) { return static_cast<std::size_t>(i); }
  std::string segment_of(int t) const { return std::string(path_leaf(run_.modules[at(t)].path)); }

  // The trace's module tree, with a virtual root when the run has no "" module; each node's shapes and
  // first start over its subtree; children in start order.
  void build_trace_tree() {
    std::unordered_map<Id, int> index;
    for (std::size_t i = 0; i < n_; ++i) index.emplace(run_.modules[i].id, static_cast<int>(i));
    for (std::size_t i = 0; i < n_; ++i) {
      if (run_.modules[i].path.empty()) root_ = static_cast<int>(i);
    }
    for (std::size_t i = 0; i < n_; ++i) {
      if (static_cast<int>(i) == root_) continue;
      auto p = index.find(run_.modules[i].parent_id);
      nodes_[i].parent = p == index.end() ? root_ : p->second;
      nodes_[at(nodes_[i].parent)].children.push_back(static_cast<int>(i));
    }
    result_.trace_has_shapes = false;
    for (const auto& op : run_.ops) {
      auto it = index.find(op.module_id);
      auto& t = nodes_[at(it == index.end() ? root_ : it->second)];
      t.first = std::min(t.first, op.start_ns);
      const std::vector<int>* positions = parameter_positions(op.name);
      for (std::size_t i = 0; i < op.args.size(); ++i) {
        const auto& arg = op.args[i];
        if (!arg.is_tensor) continue;
        result_.trace_has_shapes = result_.trace_has_shapes || !arg.shape.empty();
        t.seen.insert(arg.shape);
        if (positions &&
            std::find(positions->begin(), positions->end(), static_cast<int>(i)) != positions->end()) {
          t.parameters.insert(arg.shape);
        }
      }
    }
    // Depths, then subtree unions from the deepest up.
    std::vector<int> todo{root_};
    while (!todo.empty()) {
      int t = todo.back();
      todo.pop_back();
      order_.push_back(t);
      for (int c : nodes_[at(t)].children) {
        nodes_[at(c)].depth = nodes_[at(t)].depth + 1;
        todo.push_back(c);
      }
    }
    for (auto it = order_.rbegin(); it != order_.rend(); ++it) {
      const auto& t = nodes_[at(*it)];
      if (t.parent < 0) continue;
      auto& p = nodes_[at(t.parent)];
      p.seen.insert(t.seen.begin(), t.seen.end());
      p.parameters.insert(t.parameters.begin(), t.parameters.end());
      p.first = std::min(p.first, t.first);
    }
    for (auto& t : nodes_) {
      std::stable_sort(t.children.begin(), t.children.end(),
                       [&](int a, int b) { return nodes_[at(a)].first < nodes_[at(b)].first; });
    }
  }

  bool fits(int t, int a) const {
    const auto& tn = nodes_[at(t)];
    const auto& an = attrs_.nodes[at(a)];
    return std::includes(tn.seen.begin(), tn.seen.end(), an.shapes.begin(), an.shapes.end()) &&
           std::includes(an.shapes.begin(), an.shapes.end(), tn.parameters.begin(), tn.parameters.end());
  }

  bool is_under(int a, int ancestor) const {
    for (int x = attrs_.nodes[at(a)].parent; x >= 0; x = attrs_.nodes[at(x)].parent) {
      if (x == ancestor) return true;
    }
    return false;
  }

  // Siblings whose shapes fit each other's candidates (BertSelfOutput's dense + LayerNorm also fit
  // attention.self's query shapes) are told apart one or two levels down: a candidate fits deeply when the
  // module's children that use parameters can each take a different candidate under it (a bipartite
  // matching), recursively.
  bool fits_deeply(int t, int a, int levels) {
    if (!fits(t, a)) return false;
    if (levels == 0) return true;
    auto [it, added] = deep_memo_.try_emplace({t, a, levels}, false);
    if (!added) return it->second;
    std::vector<int> kids;
    for (int c : nodes_[at(t)].children) {
      if (!nodes_[at(c)].parameters.empty()) kids.push_back(c);
    }
    std::vector<int> under;
    attrs_.candidates(a, under);
    bool ok = kids.size() <= under.size();
    std::vector<int> taken_by(under.size(), -1);
    std::function<bool(std::size_t, std::vector<char>&)> augment = [&](std::size_t k,
                                                                       std::vector<char>& seen) {
      for (std::size_t j = 0; j < under.size(); ++j) {
        if (seen[j] || !fits_deeply(kids[k], under[j], levels - 1)) continue;
        seen[j] = 1;
        if (taken_by[j] < 0 || augment(at(taken_by[j]), seen)) {
          taken_by[j] = static_cast<int>(k);
          return true;
        }
      }
      return false;
    };
    for (std::size_t k = 0; ok && k < kids.size(); ++k) {
      std::vector<char> seen(under.size(), 0);
      ok = augment(k, seen);
    }
    deep_memo_[{t, a, levels}] = ok;
    return ok;
  }

  // Names the children of a mapped (or kept) module: attribute-named ones keep their name, class-named ones
  // are matched against the attribute modules under the parent's.
  void name_children(int t) {
    const int a = attr_of_[at(t)];
    const std::string& base = final_path_[at(t)];
    Match m;
    std::unordered_set<int> taken;
    for (int c : nodes_[at(t)].children) {
      std::string seg = segment_of(c);
      final_path_[at(c)] = join(base, seg);  // kept unless mapped below
      const bool by_class = class_named(seg, run_.modules[at(c)].type);
      if (a < 0) {
        // Under a module that kept its class name: nothing to match against.
        outcome_[at(c)] = outcome_[at(t)] == Outcome::kMapped ? Outcome::kNoTensors : outcome_[at(t)];
        if (!by_class) outcome_[at(c)] = Outcome::kMapped;
        continue;
      }
      if (!by_class) {
        outcome_[at(c)] = Outcome::kMapped;
        auto it = attrs_.by_path.find(final_path_[at(c)]);
        if (it != attrs_.by_path.end()) {
          attr_of_[at(c)] = it->second;
          taken.insert(it->second);
        }
        continue;
      }
      m.by_class.push_back(c);
    }
    if (m.by_class.empty()) return;
    if (!result_.trace_has_shapes) {
      for (int c : m.by_class) {
        outcome_[at(c)] = Outcome::kAmbiguous;
        reason_[at(c)] = "the trace has no input shapes";
      }
      return;
    }
    attrs_.candidates(a, m.cands);
    std::erase_if(m.cands, [&](int x) { return taken.count(x) != 0; });
    group_look_alikes(m);
    find_fits(m);
    assign_groups(m);
    name_assigned(m);
  }

  // Look-alike groups: candidates with the same tensors (names relative to them, and shapes).
  void group_look_alikes(Match& m) const {
    std::map<std::string, int> group_of_signature;
    for (int x : m.cands) {
      auto [it, added] =
          group_of_signature.try_emplace(attrs_.nodes[at(x)].signature, static_cast<int>(m.members.size()));
      if (added) m.members.emplace_back();
      m.members[at(it->second)].push_back(x);
      m.group[x] = it->second;
    }
  }

  // The groups each child fits, told apart a level or two down when it fits several.
  void find_fits(Match& m) {
    m.fit_groups.resize(m.by_class.size());
    for (std::size_t i = 0; i < m.by_class.size(); ++i) {
      int c = m.by_class[i];
      std::vector<int> fit;
      for (int x : m.cands) {
        if (fits(c, x)) fit.push_back(x);
      }
      // A list and its own items both fit: a container class takes the list, anything else an item.
      bool container = container_class(run_.modules[at(c)].type);
      std::vector<int> kept;
      for (int x : fit) {
        bool drop = false;
        for (int y : fit) {
          if (x == y) continue;
          if (container ? is_under(x, y) : is_under(y, x) && attrs_.nodes[at(x)].list) drop = true;
        }
        if (!drop) kept.push_back(x);
      }
      for (int x : kept) m.fit_groups[i].insert(m.group[x]);
      if (m.fit_groups[i].size() > 1) {
        std::set<int> deep;
        for (int x : kept) {
          if (fits_deeply(c, x, 2)) deep.insert(m.group[x]);
        }
        if (!deep.empty()) m.fit_groups[i] = std::move(deep);
      }
      if (kept.empty()) {
        if (nodes_[at(c)].parameters.empty()) {
          outcome_[at(c)] = Outcome::kNoTensors;
        } else {
          outcome_[at(c)] = Outcome::kAmbiguous;
          reason_[at(c)] = "no tensors in the file fit the shapes its ops used";
        }
      }
    }
  }

  // A module that fits one group only takes a member of it; a full group is out for the others.
  void assign_groups(Match& m) {
    m.assigned.assign(m.by_class.size(), -1);
    std::vector<int> count(m.members.size(), 0);
    for (bool changed = true; changed;) {
      changed = false;
      for (std::size_t i = 0; i < m.by_class.size(); ++i) {
        if (m.assigned[i] >= 0 || m.fit_groups[i].size() != 1) continue;
        int g = *m.fit_groups[i].begin();
        m.assigned[i] = g;
        changed = true;
        if (++count[at(g)] >= static_cast<int>(m.members[at(g)].size())) {
          for (std::size_t j = 0; j < m.by_class.size(); ++j) {
            if (m.assigned[j] < 0) m.fit_groups[j].erase(g);
          }
        }
      }
    }
    for (std::size_t i = 0; i < m.by_class.size(); ++i) {
      int c = m.by_class[i];
      if (m.assigned[i] >= 0 || outcome_[at(c)] != Outcome::kPending) continue;
      outcome_[at(c)] = Outcome::kAmbiguous;
      reason_[at(c)] = m.fit_groups[i].empty() ? "the tensors that fit are taken by siblings"
                                               : "fits " + std::to_string(m.fit_groups[i].size()) +
                                                     " different attribute modules";
    }
  }

  // Each group's modules take its members in call order, when that order can be trusted.
  void name_assigned(const Match& m) {
    for (std::size_t g = 0; g < m.members.size(); ++g) {
      std::vector<int> calls;
      for (std::size_t i = 0; i < m.by_class.size(); ++i) {
        if (m.assigned[i] == static_cast<int>(g)) calls.push_back(m.by_class[i]);
      }
      if (calls.empty()) continue;
      const auto& members = m.members[g];
      bool numeric = std::all_of(members.begin(), members.end(),
                                 [&](int x) { return is_number(path_leaf(attrs_.nodes[at(x)].path)); });
      std::string why;
      if (calls.size() > members.size()) {
        why = std::to_string(calls.size()) + " modules fit " + std::to_string(members.size()) +
              " look-alike attribute modules";
      } else if (calls.size() < members.size()) {
        why = std::to_string(calls.size()) + " of " + std::to_string(members.size()) +
              " look-alike attribute modules ran: which ones is unknown";
      } else if (members.size() > 1 && !numeric && !registration_order_) {
        why =
            "look-alike siblings, and a " + weights_.format + " file does not keep their registration order";
      }
      for (std::size_t k = 0; k < calls.size(); ++k) {
        int c = calls[k];
        if (!why.empty()) {
          outcome_[at(c)] = Outcome::kAmbiguous;
          reason_[at(c)] = why;
          continue;
        }
        outcome_[at(c)] = Outcome::kMapped;
        attr_of_[at(c)] = members[k];
        final_path_[at(c)] = attrs_.nodes[at(members[k])].path;
        if (members.size() > 1) ++result_.by_order;
      }
    }
  }

  // Modules not mapped keep their class segments, which never clash with an attribute name.
  void name_kept() {
    std::unordered_set<std::string> used;
    for (std::size_t i = 0; i < n_; ++i) {
      if (static_cast<int>(i) == root_ || outcome_[i] != Outcome::kMapped) continue;
      used.insert(final_path_[i]);
    }
    for (int t : order_) {
      auto i = at(t);
      if (t == root_virtual_ || t == root_) continue;
      ++result_.modules;
      if (outcome_[i] == Outcome::kMapped) {
        ++result_.mapped;
      } else {
        while (!used.insert(final_path_[i]).second) final_path_[i] += "_";
        if (outcome_[i] == Outcome::kAmbiguous) {
          ++result_.ambiguous;
          ambiguous_.push_back(final_path_[i] + (reason_[i].empty() ? "" : " (" + reason_[i] + ")"));
        } else {
          ++result_.no_tensors;
          no_tensors_.push_back(final_path_[i]);
        }
        // Children name themselves from this path.
        for (int c : nodes_[i].children) final_path_[at(c)] = join(final_path_[i], segment_of(c));
      }
      run_.modules[i].path = final_path_[i];
    }
  }

  // The file's tensors, each owned by the module with the longest matching path.
  void place_tensors() {
    std::unordered_map<std::string, Id> by_path;
    for (const auto& m : run_.modules) by_path.emplace(m.path, m.id);
    run_.params = to_param_records(weights_);
    for (auto& p : run_.params) {
      std::string owner = p.name;
      bool exact = true;
      p.module_id = kNoId;
      while (true) {
        owner = std::string(path_parent(owner));
        if (auto it = by_path.find(owner); it != by_path.end()) {
          p.module_id = it->second;
          break;
        }
        exact = false;
        if (owner.empty()) break;
      }
      if (!exact) ++result_.tensors_unplaced;
    }
    result_.tensors = static_cast<std::int64_t>(run_.params.size());
  }

  void note_quality(const std::string& weights_path) {
    std::sort(no_tensors_.begin(), no_tensors_.end());
    run_.quality.emplace_back(
        QualityCode::paths_from_weights_file, result_.mapped,
        weights_path + " (" + std::to_string(result_.by_order) + " by call order among look-alike siblings)");
    if (!result_.trace_has_shapes) run_.quality.emplace_back(QualityCode::trace_without_shapes, 1);
    if (result_.no_tensors > 0) {
      run_.quality.emplace_back(QualityCode::modules_without_own_tensors, result_.no_tensors,
                                list_text(no_tensors_));
    }
    if (result_.ambiguous > 0) {
      run_.quality.emplace_back(QualityCode::modules_ambiguous_in_weights, result_.ambiguous,
                                list_text(ambiguous_));
    }
    if (result_.tensors_unplaced > 0) {
      run_.quality.emplace_back(QualityCode::weight_tensors_unplaced, result_.tensors_unplaced);
    }
  }

  RunData& run_;
  const WeightsReport& weights_;
  const AttrTree attrs_;
  const bool registration_order_;  // the file keeps modules in registration order
  const std::size_t n_;
  const int root_virtual_;
  int root_;
  std::vector<TraceNode> nodes_;
  std::vector<int> order_;  // parents before children
  std::vector<std::string> final_path_;
  std::vector<int> attr_of_;  // attribute module of each trace module, -1 none
  std::vector<Outcome> outcome_;
  std::vector<std::string> reason_;
  std::vector<std::string> no_tensors_, ambiguous_;
  std::map<std::tuple<int, int, int>, bool> deep_memo_;
  WeightPathResult result_;
};

}  // namespace

WeightPathResult map_weight_paths(RunData& run, const WeightsReport& weights,
                                  const std::string& weights_path) {
  return PathMapper(run, weights).map(weights_path);
}

}  // namespace flopscope
