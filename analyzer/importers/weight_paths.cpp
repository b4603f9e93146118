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

}  // namespace

WeightPathResult map_weight_paths(RunData& run, const WeightsReport& weights,
                                  const std::string& weights_path) {
  WeightPathResult result;
  const AttrTree attrs(weights);
  const bool registration_order = weights.format == "torch.save" || weights.format == "torchscript";

  // The trace's module tree, with a virtual root when the run has no "" module.
  const std::size_t n = run.modules.size();
  std::unordered_map<Id, int> index;
  for (std::size_t i = 0; i < n; ++i) index.emplace(run.modules[i].id, static_cast<int>(i));
  std::vector<TraceNode> nodes(n + 1);
  const int root_virtual = static_cast<int>(n);
  int root = root_virtual;
  for (std::size_t i = 0; i < n; ++i) {
    if (run.modules[i].path.empty()) root = static_cast<int>(i);
  }
  for (std::size_t i = 0; i < n; ++i) {
    if (static_cast<int>(i) == root) continue;
    auto p = index.find(run.modules[i].parent_id);
    nodes[i].parent = p == index.end() ? root : p->second;
    nodes[static_cast<std::size_t>(nodes[i].parent)].children.push_back(static_cast<int>(i));
  }
  result.trace_has_shapes = false;
  for (const auto& op : run.ops) {
    auto it = index.find(op.module_id);
    auto& t = nodes[static_cast<std::size_t>(it == index.end() ? root : it->second)];
    t.first = std::min(t.first, op.start_ns);
    const std::vector<int>* positions = parameter_positions(op.name);
    for (std::size_t i = 0; i < op.args.size(); ++i) {
      const auto& arg = op.args[i];
      if (!arg.is_tensor) continue;
      result.trace_has_shapes = result.trace_has_shapes || !arg.shape.empty();
      t.seen.insert(arg.shape);
      if (positions &&
          std::find(positions->begin(), positions->end(), static_cast<int>(i)) != positions->end()) {
        t.parameters.insert(arg.shape);
      }
    }
  }
  // Depths, then subtree unions from the deepest up.
  std::vector<int> order;
  std::vector<int> todo{root};
  while (!todo.empty()) {
    int t = todo.back();
    todo.pop_back();
    order.push_back(t);
    for (int c : nodes[static_cast<std::size_t>(t)].children) {
      nodes[static_cast<std::size_t>(c)].depth = nodes[static_cast<std::size_t>(t)].depth + 1;
      todo.push_back(c);
    }
  }
  for (auto it = order.rbegin(); it != order.rend(); ++it) {
    const auto& t = nodes[static_cast<std::size_t>(*it)];
    if (t.parent < 0) continue;
    auto& p = nodes[static_cast<std::size_t>(t.parent)];
    p.seen.insert(t.seen.begin(), t.seen.end());
    p.parameters.insert(t.parameters.begin(), t.parameters.end());
    p.first = std::min(p.first, t.first);
  }
  for (auto& t : nodes) {
    std::stable_sort(t.children.begin(), t.children.end(), [&](int a, int b) {
      return nodes[static_cast<std::size_t>(a)].first < nodes[static_cast<std::size_t>(b)].first;
    });
  }

  auto segment_of = [&](int t) {
    return std::string(path_leaf(run.modules[static_cast<std::size_t>(t)].path));
  };
  std::vector<std::string> final_path(n + 1);
  std::vector<int> attr_of(n + 1, -1);
  std::vector<Outcome> outcome(n + 1, Outcome::kPending);
  std::vector<std::string> reason(n + 1);
  std::vector<std::string> no_tensors, ambiguous;
  attr_of[static_cast<std::size_t>(root)] = 0;
  outcome[static_cast<std::size_t>(root)] = Outcome::kMapped;

  auto fits = [&](int t, int a) {
    const auto& tn = nodes[static_cast<std::size_t>(t)];
    const auto& an = attrs.nodes[static_cast<std::size_t>(a)];
    return std::includes(tn.seen.begin(), tn.seen.end(), an.shapes.begin(), an.shapes.end()) &&
           std::includes(an.shapes.begin(), an.shapes.end(), tn.parameters.begin(), tn.parameters.end());
  };
  auto is_under = [&](int a, int ancestor) {
    for (int x = attrs.nodes[static_cast<std::size_t>(a)].parent; x >= 0;
         x = attrs.nodes[static_cast<std::size_t>(x)].parent) {
      if (x == ancestor) return true;
    }
    return false;
  };

  // Siblings whose shapes fit each other's candidates (BertSelfOutput's dense + LayerNorm also fit
  // attention.self's query shapes) are told apart one or two levels down: a candidate fits deeply when the
  // module's children that use parameters can each take a different candidate under it (a bipartite
  // matching), recursively.
  std::map<std::tuple<int, int, int>, bool> deep_memo;
  std::function<bool(int, int, int)> fits_deeply = [&](int t, int a, int levels) -> bool {
    if (!fits(t, a)) return false;
    if (levels == 0) return true;
    auto [it, added] = deep_memo.try_emplace({t, a, levels}, false);
    if (!added) return it->second;
    std::vector<int> kids;
    for (int c : nodes[static_cast<std::size_t>(t)].children) {
      if (!nodes[static_cast<std::size_t>(c)].parameters.empty()) kids.push_back(c);
    }
    std::vector<int> under;
    attrs.candidates(a, under);
    bool ok = kids.size() <= under.size();
    std::vector<int> taken_by(under.size(), -1);
    std::function<bool(std::size_t, std::vector<char>&)> augment = [&](std::size_t k,
                                                                       std::vector<char>& seen) {
      for (std::size_t j = 0; j < under.size(); ++j) {
        if (seen[j] || !fits_deeply(kids[k], under[j], levels - 1)) continue;
        seen[j] = 1;
        if (taken_by[j] < 0 || augment(static_cast<std::size_t>(taken_by[j]), seen)) {
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
    deep_memo[{t, a, levels}] = ok;
    return ok;
  };

  // Parents before children: names the children of each mapped (or kept) module.
  for (int t : order) {
    const auto& tn = nodes[static_cast<std::size_t>(t)];
    const int a = attr_of[static_cast<std::size_t>(t)];
    const std::string& base = final_path[static_cast<std::size_t>(t)];
    std::vector<int> by_class;
    std::unordered_set<int> taken;
    for (int c : tn.children) {
      std::string seg = segment_of(c);
      final_path[static_cast<std::size_t>(c)] = join(base, seg);  // kept unless mapped below
      if (a < 0) {
        // Under a module that kept its class name: nothing to match against.
        outcome[static_cast<std::size_t>(c)] = outcome[static_cast<std::size_t>(t)] == Outcome::kMapped
                                                   ? Outcome::kNoTensors
                                                   : outcome[static_cast<std::size_t>(t)];
        if (!class_named(seg, run.modules[static_cast<std::size_t>(c)].type))
          outcome[static_cast<std::size_t>(c)] = Outcome::kMapped;
        continue;
      }
      if (!class_named(seg, run.modules[static_cast<std::size_t>(c)].type)) {
        outcome[static_cast<std::size_t>(c)] = Outcome::kMapped;
        auto it = attrs.by_path.find(final_path[static_cast<std::size_t>(c)]);
        if (it != attrs.by_path.end()) {
          attr_of[static_cast<std::size_t>(c)] = it->second;
          taken.insert(it->second);
        }
        continue;
      }
      by_class.push_back(c);
    }
    if (by_class.empty()) continue;
    if (!result.trace_has_shapes) {
      for (int c : by_class) {
        outcome[static_cast<std::size_t>(c)] = Outcome::kAmbiguous;
        reason[static_cast<std::size_t>(c)] = "the trace has no input shapes";
      }
      continue;
    }
    std::vector<int> cands;
    attrs.candidates(a, cands);
    std::erase_if(cands, [&](int x) { return taken.count(x) != 0; });
    // Look-alike groups, members in candidate order.
    std::map<std::string, int> group_of_signature;
    std::vector<std::vector<int>> members;
    std::unordered_map<int, int> group;
    for (int x : cands) {
      auto [it, added] = group_of_signature.try_emplace(attrs.nodes[static_cast<std::size_t>(x)].signature,
                                                        static_cast<int>(members.size()));
      if (added) members.emplace_back();
      members[static_cast<std::size_t>(it->second)].push_back(x);
      group[x] = it->second;
    }
    std::vector<std::set<int>> fit_groups(by_class.size());
    for (std::size_t i = 0; i < by_class.size(); ++i) {
      int c = by_class[i];
      std::vector<int> fit;
      for (int x : cands) {
        if (fits(c, x)) fit.push_back(x);
      }
      // A list and its own items both fit: a container class takes the list, anything else an item.
      bool container = container_class(run.modules[static_cast<std::size_t>(c)].type);
      std::vector<int> kept;
      for (int x : fit) {
        bool drop = false;
        for (int y : fit) {
          if (x == y) continue;
          if (container ? is_under(x, y) : is_under(y, x) && attrs.nodes[static_cast<std::size_t>(x)].list)
            drop = true;
        }
        if (!drop) kept.push_back(x);
      }
      for (int x : kept) fit_groups[i].insert(group[x]);
      if (fit_groups[i].size() > 1) {
        std::set<int> deep;
        for (int x : kept) {
          if (fits_deeply(c, x, 2)) deep.insert(group[x]);
        }
        if (!deep.empty()) fit_groups[i] = std::move(deep);
      }
      if (kept.empty()) {
        if (nodes[static_cast<std::size_t>(c)].parameters.empty()) {
          outcome[static_cast<std::size_t>(c)] = Outcome::kNoTensors;
        } else {
          outcome[static_cast<std::size_t>(c)] = Outcome::kAmbiguous;
          reason[static_cast<std::size_t>(c)] = "no tensors in the file fit the shapes its ops used";
        }
      }
    }
    // A module that fits one group only takes a member of it; a full group is out for the others.
    std::vector<int> assigned(by_class.size(), -1);
    std::vector<int> count(members.size(), 0);
    for (bool changed = true; changed;) {
      changed = false;
      for (std::size_t i = 0; i < by_class.size(); ++i) {
        if (assigned[i] >= 0 || fit_groups[i].size() != 1) continue;
        int g = *fit_groups[i].begin();
        assigned[i] = g;
        changed = true;
        if (++count[static_cast<std::size_t>(g)] >=
            static_cast<int>(members[static_cast<std::size_t>(g)].size())) {
          for (std::size_t j = 0; j < by_class.size(); ++j) {
            if (assigned[j] < 0) fit_groups[j].erase(g);
          }
        }
      }
    }
    for (std::size_t i = 0; i < by_class.size(); ++i) {
      int c = by_class[i];
      if (assigned[i] >= 0 || outcome[static_cast<std::size_t>(c)] != Outcome::kPending) continue;
      outcome[static_cast<std::size_t>(c)] = Outcome::kAmbiguous;
      reason[static_cast<std::size_t>(c)] =
          fit_groups[i].empty()
              ? "the tensors that fit are taken by siblings"
              : "fits " + std::to_string(fit_groups[i].size()) + " different attribute modules";
    }
    for (std::size_t g = 0; g < members.size(); ++g) {
      std::vector<int> calls;
      for (std::size_t i = 0; i < by_class.size(); ++i) {
        if (assigned[i] == static_cast<int>(g)) calls.push_back(by_class[i]);
      }
      if (calls.empty()) continue;
      const auto& m = members[g];
      bool numeric = std::all_of(m.begin(), m.end(), [&](int x) {
        return is_number(path_leaf(attrs.nodes[static_cast<std::size_t>(x)].path));
      });
      std::string why;
      if (calls.size() > m.size()) {
        why = std::to_string(calls.size()) + " modules fit " + std::to_string(m.size()) +
              " look-alike attribute modules";
      } else if (calls.size() < m.size()) {
        why = std::to_string(calls.size()) + " of " + std::to_string(m.size()) +
              " look-alike attribute modules ran: which ones is unknown";
      } else if (m.size() > 1 && !numeric && !registration_order) {
        why = "look-alike siblings, and a " + weights.format + " file does not keep their registration order";
      }
      for (std::size_t k = 0; k < calls.size(); ++k) {
        int c = calls[k];
        if (!why.empty()) {
          outcome[static_cast<std::size_t>(c)] = Outcome::kAmbiguous;
          reason[static_cast<std::size_t>(c)] = why;
          continue;
        }
        outcome[static_cast<std::size_t>(c)] = Outcome::kMapped;
        attr_of[static_cast<std::size_t>(c)] = m[k];
        final_path[static_cast<std::size_t>(c)] = attrs.nodes[static_cast<std::size_t>(m[k])].path;
        if (m.size() > 1) ++result.by_order;
      }
    }
  }

  // Kept class segments never clash with an attribute name.
  std::unordered_set<std::string> used;
  for (std::size_t i = 0; i < n; ++i) {
    if (static_cast<int>(i) == root || outcome[i] != Outcome::kMapped) continue;
    used.insert(final_path[i]);
  }
  for (int t : order) {
    auto i = static_cast<std::size_t>(t);
    if (t == root_virtual || t == root) continue;
    ++result.modules;
    if (outcome[i] == Outcome::kMapped) {
      ++result.mapped;
    } else {
      while (!used.insert(final_path[i]).second) final_path[i] += "_";
      if (outcome[i] == Outcome::kAmbiguous) {
        ++result.ambiguous;
        ambiguous.push_back(final_path[i] + (reason[i].empty() ? "" : " (" + reason[i] + ")"));
      } else {
        ++result.no_tensors;
        no_tensors.push_back(final_path[i]);
      }
      // Children name themselves from this path.
      for (int c : nodes[i].children) {
        final_path[static_cast<std::size_t>(c)] = join(final_path[i], segment_of(c));
      }
    }
    run.modules[i].path = final_path[i];
  }

  // The file's tensors, each owned by the module with the longest matching path.
  std::unordered_map<std::string, Id> by_path;
  for (const auto& m : run.modules) by_path.emplace(m.path, m.id);
  run.params = to_param_records(weights);
  for (auto& p : run.params) {
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
    if (!exact) ++result.tensors_unplaced;
  }
  result.tensors = static_cast<std::int64_t>(run.params.size());

  std::sort(no_tensors.begin(), no_tensors.end());
  run.quality.emplace_back(QualityCode::paths_from_weights_file, result.mapped,
                           weights_path + " (" + std::to_string(result.by_order) +
                               " by call order among look-alike siblings)");
  if (!result.trace_has_shapes) run.quality.emplace_back(QualityCode::trace_without_shapes, 1);
  if (result.no_tensors > 0) {
    run.quality.emplace_back(QualityCode::modules_without_own_tensors, result.no_tensors, list_text(no_tensors));
  }
  if (result.ambiguous > 0) {
    run.quality.emplace_back(QualityCode::modules_ambiguous_in_weights, result.ambiguous, list_text(ambiguous));
  }
  if (result.tensors_unplaced > 0) {
    run.quality.emplace_back(QualityCode::weight_tensors_unplaced, result.tensors_unplaced);
  }
  return result;
}

}  // namespace flopscope
