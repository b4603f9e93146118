#include "analyzer/diff/correspondence.h"

#include <fmt/format.h>
#include <re2/re2.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <set>
#include <unordered_set>

#include "analyzer/diff/align.h"
#include "analyzer/diff/assignment.h"
#include "analyzer/weights/tensor_similarity.h"
#include "db/model/module_path.h"

namespace flopscope {
namespace {

constexpr double kMinMatchScore = 1.0;  // below it two modules are not paired at all
// Up to kDense siblings on both sides together every pair is weighed and solved as one assignment (O(k^3)),
// and up to kRunnerUps the runner-up readings are sought too (k more solves); above kDense, pairs certain by
// name and content are taken first, the rest weighed if few enough, else joined by name (with a warning).
constexpr std::size_t kDense = 400;
constexpr std::size_t kRunnerUps = 120;

struct Node {
  std::string path, name, type;
  int module = -1;  // index into RunData::modules; -1: a level implied by deeper paths after the maps
  int parent = -1;
  std::vector<int> children;
  bool declared = false;  // a one-sided --map matched this module (and not its parent): its identity is given
  bool has_compute = false;
  double calls = 0, ops_per_call = 0, flops_per_call = 0;
};

struct Tree {
  std::vector<Node> nodes;  // 0: the root
  std::unordered_map<std::string, int> by_path;
  std::vector<std::pair<std::string, const ParamRecord*>> params;  // names after the maps, sorted
};

int ensure(Tree& t, const std::string& path) {
  auto it = t.by_path.find(path);
  if (it != t.by_path.end()) return it->second;
  const int parent = ensure(t, std::string(path_parent(path)));
  const int id = static_cast<int>(t.nodes.size());
  Node n;
  n.path = path;
  n.name = path_leaf(path);
  n.parent = parent;
  t.nodes.push_back(std::move(n));
  t.nodes[static_cast<std::size_t>(parent)].children.push_back(id);
  t.by_path.emplace(path, id);
  return id;
}

bool one_sided_match(const SidePaths& paths, const std::string& path) {
  for (std::size_t i = paths.one_sided_from; i < paths.maps.size(); ++i) {
    if (RE2::PartialMatch(path, *paths.maps[i].pattern)) return true;
  }
  return false;
}

Tree build_tree(const RunData& run, const RunSummary* summary, const SidePaths& paths,
                std::vector<std::string>& warnings, const char* side) {
  Tree t;
  t.nodes.push_back(Node{});
  t.by_path.emplace("", 0);
  std::unordered_map<std::string, const ModuleSummary*> by_original;
  if (summary != nullptr) {
    for (const auto& m : summary->modules) by_original.emplace(m.path, &m);
  }
  for (std::size_t i = 0; i < run.modules.size(); ++i) {
    const ModuleRecord& m = run.modules[i];
    const std::string p = apply_path_maps(paths.maps, m.path);
    const int id = ensure(t, p);
    Node& n = t.nodes[static_cast<std::size_t>(id)];
    if (n.module >= 0) {
      warnings.push_back(
          fmt::format("module path '{}' occurs twice in {} after --map; the second is ignored", p, side));
      continue;
    }
    n.module = static_cast<int>(i);
    n.type = m.type;
    n.declared = !m.path.empty() && one_sided_match(paths, m.path) &&
                 !one_sided_match(paths, std::string(path_parent(m.path)));
    auto s = by_original.find(m.path);
    if (s != by_original.end()) {
      n.has_compute = true;
      n.calls = s->second->calls;
      if (n.calls > 0) {
        n.ops_per_call = s->second->inclusive.ops / n.calls;
        n.flops_per_call = s->second->inclusive.flops / n.calls;
      }
    }
  }
  std::unordered_set<std::string> seen;
  for (const auto& p : run.params) {
    std::string name = apply_path_maps(paths.maps, p.name);
    if (seen.insert(name).second) t.params.emplace_back(std::move(name), &p);
  }
  std::sort(t.params.begin(), t.params.end(), [](const auto& x, const auto& y) { return x.first < y.first; });
  return t;
}

// A subtree's parameters by name relative to the subtree, and its modules' relative paths.
struct Subtree {
  std::vector<std::pair<std::string, const ParamRecord*>> params;  // sorted by relative name
  std::set<std::string> modules;
  std::string content;  // the parameters' relative names and hashes: equal content, equal key
};

Subtree subtree_of(const Tree& t, int id) {
  Subtree s;
  const std::string& root = t.nodes[static_cast<std::size_t>(id)].path;
  // The names below `root` are the ones that start with "root.": one contiguous run of the sorted list.
  // (Searching for "root" alone would also walk root's siblings "root0", "root10", ...: quadratic in a
  // ModuleList of thousands.)
  const std::string prefix = root.empty() ? std::string() : root + ".";
  auto first = std::lower_bound(t.params.begin(), t.params.end(), prefix,
                                [](const auto& x, const std::string& r) { return x.first < r; });
  for (auto it = first; it != t.params.end() && it->first.starts_with(prefix); ++it) {
    s.params.emplace_back(it->first.substr(prefix.size()), it->second);
  }
  for (const auto& [rel, p] : s.params) s.content += rel + "=" + p->sha256 + ";";
  std::vector<int> stack(t.nodes[static_cast<std::size_t>(id)].children);
  while (!stack.empty()) {
    const Node& n = t.nodes[static_cast<std::size_t>(stack.back())];
    stack.pop_back();
    s.modules.insert(root.empty() ? n.path : n.path.substr(root.size() + 1));
    stack.insert(stack.end(), n.children.begin(), n.children.end());
  }
  return s;
}

template <typename Set>
double jaccard(const Set& x, const Set& y) {
  if (x.empty() && y.empty()) return 1;
  std::size_t both = 0;
  for (const auto& e : x) both += y.count(e);
  return static_cast<double>(both) / static_cast<double>(x.size() + y.size() - both);
}

bool same_number(double x, double y) {
  return std::fabs(x - y) <= 1e-9 * std::max(std::fabs(x), std::fabs(y));
}

MatchEvidence evidence(const Node& x, const Subtree& sx, std::size_t ix, std::size_t nx, const Node& y,
                       const Subtree& sy, std::size_t iy, std::size_t ny) {
  MatchEvidence e;
  const bool with_params = !sx.params.empty() || !sy.params.empty();
  // Without weights, a name is all that tells two parameterless siblings apart: it counts more.
  if (x.name == y.name) e.name = with_params ? 1.0 : 3.0;
  if (!x.type.empty() && x.type == y.type) e.type = 0.5;
  const double px = (static_cast<double>(ix) + 0.5) / static_cast<double>(nx);
  const double py = (static_cast<double>(iy) + 0.5) / static_cast<double>(ny);
  e.order = 0.3 * (1 - std::fabs(px - py));
  std::set<std::string> shapes_x, shapes_y;
  for (const auto& [rel, p] : sx.params) shapes_x.insert(rel + "=" + shape_key(p->shape));
  for (const auto& [rel, p] : sy.params) shapes_y.insert(rel + "=" + shape_key(p->shape));
  // Two leaves share "no submodules": that is no evidence that they are one module.
  const bool leaves = sx.modules.empty() && sy.modules.empty();
  const double modules = leaves ? 0 : jaccard(sx.modules, sy.modules);
  if (with_params) {
    e.structure = 3 * jaccard(shapes_x, shapes_y) + 1 * modules;
    // Weights: tensors of the same relative name, exact (1) or similar (0.9 .. 1) content, over all names.
    double same = 0;
    std::size_t names = sx.params.size() + sy.params.size();
    std::size_t i = 0, j = 0;
    while (i < sx.params.size() && j < sy.params.size()) {
      const int c = sx.params[i].first.compare(sy.params[j].first);
      if (c < 0) {
        ++i;
      } else if (c > 0) {
        ++j;
      } else {
        --names;
        const ParamRecord& pa = *sx.params[i].second;
        const ParamRecord& pb = *sy.params[j].second;
        switch (content_relation(pa, pb)) {
          case ContentRelation::kExact:
            same += 1;
            break;
          case ContentRelation::kSimilar:
            same += 0.9 + 0.1 * std::max(0.0, sketch_similarity(pa, pb).value_or(1.0));
            break;
          case ContentRelation::kNone:
            break;
        }
        ++i;
        ++j;
      }
    }
    e.weights = names > 0 ? 6 * same / static_cast<double>(names) : 0;
  } else {
    e.structure = leaves ? 2 : 4 * modules;
  }
  if (x.has_compute && y.has_compute) {
    if (same_number(x.calls, y.calls)) e.compute += 0.5;
    if (x.calls > 0 && y.calls > 0) {
      if (same_number(x.ops_per_call, y.ops_per_call)) e.compute += 0.5;
      if (same_number(x.flops_per_call, y.flops_per_call)) e.compute += 0.5;
    }
  }
  e.pinned = x.declared || y.declared ? x.path == y.path : false;
  return e;
}

// A pair needs more than class, position and "both are leaves": the same name, or something of the modules
// themselves in common (parameter shapes, weight contents, submodules, or the same work per call).
bool qualifies(const MatchEvidence& e, const Subtree& sx, const Subtree& sy) {
  if (e.name > 0 || e.pinned || e.weights > 0 || e.compute >= 1.0) return true;
  const bool with_params = !sx.params.empty() || !sy.params.empty();
  return with_params ? e.structure >= 1.5 : e.structure > 2;
}

class Matcher {
 public:
  Matcher(Tree a, Tree b) : a_(std::move(a)), b_(std::move(b)) {}

  Correspondence run() {
    match(0, 0);
    return std::move(out_);
  }

 private:
  // The problem of one parent pair: pairwise evidence and the best assignment. `score` is kept (for the
  // runner-up readings) only when the pair's children are few enough to weigh every pair.
  struct Problem {
    std::vector<int> a, b;
    std::vector<std::vector<double>> score;
    std::vector<MatchEvidence> chosen;  // per A child: the evidence of the pair it is in
    Assignment best;
  };

  MatchEvidence weigh(const Problem& p, const std::vector<Subtree>& sa, const std::vector<Subtree>& sb,
                      std::size_t i, std::size_t j) const {
    return evidence(node_a(p.a[i]), sa[i], i, p.a.size(), node_b(p.b[j]), sb[j], j, p.b.size());
  }

  // Every pair weighed and solved as one assignment; a declared pair excludes other partners of its modules.
  void solve_dense(Problem& p, const std::vector<Subtree>& sa, const std::vector<Subtree>& sb,
                   const std::vector<std::size_t>& rows, const std::vector<std::size_t>& cols,
                   bool keep_score) {
    std::vector<std::vector<MatchEvidence>> ev(rows.size(), std::vector<MatchEvidence>(cols.size()));
    std::vector<std::vector<double>> score(rows.size(), std::vector<double>(cols.size(), kForbidden));
    std::vector<bool> pinned_a(rows.size()), pinned_b(cols.size());
    for (std::size_t r = 0; r < rows.size(); ++r) {
      for (std::size_t c = 0; c < cols.size(); ++c) {
        ev[r][c] = weigh(p, sa, sb, rows[r], cols[c]);
        const double s = ev[r][c].total();
        if (s >= kMinMatchScore && qualifies(ev[r][c], sa[rows[r]], sb[cols[c]])) score[r][c] = s;
        if (ev[r][c].pinned) pinned_a[r] = pinned_b[c] = true;
      }
    }
    for (std::size_t r = 0; r < rows.size(); ++r) {
      for (std::size_t c = 0; c < cols.size(); ++c) {
        if ((pinned_a[r] || pinned_b[c]) && !ev[r][c].pinned) score[r][c] = kForbidden;
      }
    }
    const Assignment solved = solve_assignment(score, cols.size());
    for (std::size_t r = 0; r < rows.size(); ++r) {
      if (solved.b_of_a[r] < 0) continue;
      const auto c = static_cast<std::size_t>(solved.b_of_a[r]);
      p.best.b_of_a[rows[r]] = static_cast<int>(cols[c]);
      p.best.a_of_b[cols[c]] = static_cast<int>(rows[r]);
      p.chosen[rows[r]] = ev[r][c];
    }
    p.best.total += solved.total;
    if (keep_score) p.score = std::move(score);
  }

  Problem solve(const std::vector<int>& ka, const std::vector<int>& kb) {
    Problem p;
    p.a = ka;
    p.b = kb;
    const std::size_t n = ka.size(), m = kb.size();
    std::vector<Subtree> sa, sb;
    for (int x : ka) sa.push_back(subtree_of(a_, x));
    for (int y : kb) sb.push_back(subtree_of(b_, y));
    p.best.b_of_a.assign(n, -1);
    p.best.a_of_b.assign(m, -1);
    p.chosen.assign(n, MatchEvidence{});
    std::vector<std::size_t> all_a(n), all_b(m);
    for (std::size_t i = 0; i < n; ++i) all_a[i] = i;
    for (std::size_t j = 0; j < m; ++j) all_b[j] = j;
    if (n + m <= kDense) {
      solve_dense(p, sa, sb, all_a, all_b, n + m <= kRunnerUps);
      return p;
    }
    // Siblings by the hundred (long ModuleLists): a pair of one name whose subtrees agree in structure (and
    // in content, where there are weights) is taken as it is; only the rest is weighed pair by pair.
    std::unordered_map<std::string, std::size_t> b_by_name;
    for (std::size_t j = 0; j < m; ++j) b_by_name.emplace(node_b(kb[j]).name, j);
    std::vector<std::size_t> rest_a, rest_b;
    for (std::size_t i = 0; i < n; ++i) {
      auto it = b_by_name.find(node_a(ka[i]).name);
      bool taken = false;
      if (it != b_by_name.end()) {
        const MatchEvidence e = weigh(p, sa, sb, i, it->second);
        const bool with_params = !sa[i].params.empty() || !sb[it->second].params.empty();
        const bool certain =
            e.pinned || (qualifies(e, sa[i], sb[it->second]) &&
                         (with_params ? e.structure >= 3 && e.weights >= 5.4 : e.structure >= 2));
        if (certain) {
          p.best.b_of_a[i] = static_cast<int>(it->second);
          p.best.a_of_b[it->second] = static_cast<int>(i);
          p.best.total += e.total();
          p.chosen[i] = e;
          taken = true;
        }
      }
      if (!taken) rest_a.push_back(i);
    }
    for (std::size_t j = 0; j < m; ++j) {
      if (p.best.a_of_b[j] < 0) rest_b.push_back(j);
    }
    if (rest_a.size() + rest_b.size() <= kDense) {
      solve_dense(p, sa, sb, rest_a, rest_b, false);
      return p;
    }
    out_.warnings.push_back(fmt::format(
        "{} children of '{}' differ in name or content: joined by name only, without weighing the evidence",
        rest_a.size() + rest_b.size(), node_a(node_a(ka[0]).parent).path));
    for (std::size_t i : rest_a) {
      auto it = b_by_name.find(node_a(ka[i]).name);
      if (it == b_by_name.end() || p.best.a_of_b[it->second] >= 0) continue;
      const MatchEvidence e = weigh(p, sa, sb, i, it->second);
      p.best.b_of_a[i] = static_cast<int>(it->second);
      p.best.a_of_b[it->second] = static_cast<int>(i);
      p.best.total += e.total();
      p.chosen[i] = e;
    }
    return p;
  }

  const Node& node_a(int id) const { return a_.nodes[static_cast<std::size_t>(id)]; }
  const Node& node_b(int id) const { return b_.nodes[static_cast<std::size_t>(id)]; }

  // The aligned path of B module `y` once matched (or left alone) under the A module `parent_a`.
  std::string aligned(int parent_a, const std::string& name) const {
    const std::string& p = node_a(parent_a).path;
    return p.empty() ? name : p + "." + name;
  }

  void match(int xa, int xb) {
    // Candidates: the children of both, or, when one side has a single pass-through level the other lacks,
    // the children below it (PEFT's base_model.model, a wrapper dropped in a refactor).
    Problem p = solve(node_a(xa).children, node_b(xb).children);
    for (int side = 0; side < 2; ++side) {
      std::vector<int> ka = p.a, kb = p.b;
      for (int depth = 0; depth < 4; ++depth) {
        const std::vector<int>& single = side == 0 ? ka : kb;
        if (single.size() != 1) break;
        const Tree& t = side == 0 ? a_ : b_;
        const Node& w = t.nodes[static_cast<std::size_t>(single[0])];
        if (w.children.empty()) break;
        if (side == 0)
          ka = w.children;
        else
          kb = w.children;
        Problem q = solve(ka, kb);
        if (q.best.total > p.best.total + kAmbiguityMargin) p = std::move(q);
      }
    }
    record(p, p.a.empty() ? xa : node_a(p.a[0]).parent);
    for (std::size_t i = 0; i < p.a.size(); ++i) {
      if (p.best.b_of_a[i] >= 0) match(p.a[i], p.b[static_cast<std::size_t>(p.best.b_of_a[i])]);
    }
  }

  void record(const Problem& p, int parent_a) {
    const std::size_t n = p.a.size(), m = p.b.size();
    std::unordered_set<std::string> a_names;
    for (int x : p.a) a_names.insert(node_a(x).name);
    for (std::size_t j = 0; j < m; ++j) {
      const Node& y = node_b(p.b[j]);
      const int i = p.best.a_of_b[j];
      if (i >= 0) {
        const Node& x = node_a(p.a[static_cast<std::size_t>(i)]);
        if (y.path != x.path) out_.renames.emplace_back(y.path, x.path);
        ModuleMatch mm;
        mm.a_path = x.path;
        mm.b_path = y.path;
        mm.evidence = p.chosen[static_cast<std::size_t>(i)];
        mm.score = mm.evidence.total();
        mm.margin = std::numeric_limits<double>::infinity();
        out_.by_a_path.emplace(x.path, std::move(mm));
      } else {
        const std::string target = aligned(parent_a, y.name);
        if (a_names.count(y.name) != 0) {
          out_.renames.emplace_back(y.path, target + "@B");
        } else if (target != y.path) {
          out_.renames.emplace_back(y.path, target);
        }
      }
    }
    ambiguity(p, n, m);
  }

  // Each module's fate flipped in turn (matched <-> unmatched): a runner-up within the margin is not proof.
  void ambiguity(const Problem& p, std::size_t n, std::size_t m) {
    if (n == 0 || m == 0 || p.score.empty()) return;
    auto flip = [&](bool on_a, std::size_t k) {
      std::vector<int> fa(n, 0), fb(m, 0);
      const bool matched = on_a ? p.best.b_of_a[k] >= 0 : p.best.a_of_b[k] >= 0;
      (on_a ? fa : fb)[k] = matched ? -1 : +1;
      return solve_assignment(p.score, m, fa, fb);
    };
    std::set<std::vector<int>> seen;
    for (int side = 0; side < 2; ++side) {
      const std::size_t count = side == 0 ? n : m;
      for (std::size_t k = 0; k < count; ++k) {
        const Assignment alt = flip(side == 0, k);
        const double margin = p.best.total - alt.total;
        // The best margin seen for each matched pair's A module.
        auto note_margin = [&](std::size_t i, const Assignment& other) {
          const int j = p.best.b_of_a[i];
          if (j < 0) return;
          auto it = out_.by_a_path.find(node_a(p.a[i]).path);
          if (it == out_.by_a_path.end() || margin >= it->second.margin) return;
          it->second.margin = margin;
          const int oj = other.b_of_a[i];
          it->second.runner_up = oj < 0 ? "(none)" : node_b(p.b[static_cast<std::size_t>(oj)]).path;
        };
        for (std::size_t i = 0; i < n; ++i) {
          if (alt.b_of_a[i] != p.best.b_of_a[i]) note_margin(i, alt);
        }
        if (!(margin < kAmbiguityMargin)) continue;
        // Only another pairing is another reading: leaving a weakly paired module unpaired explains nothing
        // better (a LoRA-wrapped q_proj paired with the plain q_proj by name alone stays paired).
        bool repaired = false;
        for (std::size_t i = 0; i < n; ++i) {
          repaired = repaired || (alt.b_of_a[i] >= 0 && alt.b_of_a[i] != p.best.b_of_a[i]);
        }
        if (!repaired) continue;
        std::vector<int> key;
        AmbiguousGroup g;
        g.margin = margin;
        for (std::size_t i = 0; i < n; ++i) {
          if (alt.b_of_a[i] == p.best.b_of_a[i]) continue;
          key.push_back(static_cast<int>(i));
          g.a_paths.push_back(node_a(p.a[i]).path);
        }
        for (std::size_t j = 0; j < m; ++j) {
          if (alt.a_of_b[j] == p.best.a_of_b[j]) continue;
          key.push_back(-1 - static_cast<int>(j));
          g.b_paths.push_back(node_b(p.b[j]).path);
        }
        if (key.empty() || !seen.insert(key).second) continue;
        g.chosen = reading(p, p.best, key);
        g.alternative = reading(p, alt, key);
        g.settle = settle_maps(p, alt, key);
        g.settle_chosen = settle_maps(p, p.best, key);
        out_.ambiguous.push_back(std::move(g));
      }
    }
  }

  // "B blocks.1 = A blocks.1, A blocks.2 gone from B" for the members of one group under one assignment.
  std::string reading(const Problem& p, const Assignment& x, const std::vector<int>& key) const {
    std::vector<std::string> parts;
    for (int k : key) {
      if (k >= 0) {
        const auto i = static_cast<std::size_t>(k);
        const int j = x.b_of_a[i];
        parts.push_back(j < 0 ? "A " + node_a(p.a[i]).path + " gone from B"
                              : "B " + node_b(p.b[static_cast<std::size_t>(j)]).path + " = A " +
                                    node_a(p.a[i]).path);
      } else {
        const auto j = static_cast<std::size_t>(-1 - k);
        if (x.a_of_b[j] < 0) parts.push_back("B " + node_b(p.b[j]).path + " new in B");
      }
    }
    std::string out;
    for (const auto& s : parts) out += (out.empty() ? "" : ", ") + s;
    return out;
  }

  // --map-b options that declare `x`'s reading of the group: each B module of a pair renamed to its A
  // partner, in an order where no map's result is a later map's input.
  std::vector<std::string> settle_maps(const Problem& p, const Assignment& x,
                                       const std::vector<int>& key) const {
    std::vector<std::pair<std::string, std::string>> renames;
    std::set<std::size_t> bs;
    for (int k : key) {
      if (k >= 0 && x.b_of_a[static_cast<std::size_t>(k)] >= 0)
        bs.insert(static_cast<std::size_t>(x.b_of_a[static_cast<std::size_t>(k)]));
      if (k < 0) bs.insert(static_cast<std::size_t>(-1 - k));
    }
    // Every B sibling whose partner is another name must move too, or two B modules would share a path.
    for (std::size_t j = 0; j < p.b.size(); ++j) {
      const int i = x.a_of_b[j];
      if (i < 0) continue;
      const std::string& from = node_b(p.b[j]).path;
      const std::string& to = node_a(p.a[static_cast<std::size_t>(i)]).path;
      if (from != to || bs.count(j) != 0) renames.emplace_back(from, to);
    }
    std::vector<std::string> out;
    std::vector<bool> done(renames.size(), false);
    for (std::size_t round = 0; round < renames.size(); ++round) {
      if (std::all_of(done.begin(), done.end(), [](bool d) { return d; })) break;
      bool progressed = false;
      for (std::size_t r = 0; r < renames.size(); ++r) {
        if (done[r]) continue;
        bool blocks = false;  // its result is the input of a rename still to come
        for (std::size_t s = 0; s < renames.size(); ++s) {
          if (s != r && !done[s] && renames[s].first == renames[r].second) blocks = true;
        }
        if (blocks) continue;
        out.push_back(
            fmt::format("--map-b '^{}(\\.|$)={}$1'", RE2::QuoteMeta(renames[r].first), renames[r].second));
        done[r] = true;
        progressed = true;
      }
      if (!progressed) return {};  // a swap: no order of renames says it
    }
    return out;
  }

  Tree a_, b_;
  Correspondence out_;
};

}  // namespace

Correspondence match_modules(const RunData& a, const RunSummary* sa, const SidePaths& pa, const RunData& b,
                             const RunSummary* sb, const SidePaths& pb) {
  std::vector<std::string> warnings;
  Tree ta = build_tree(a, sa, pa, warnings, "A");
  Tree tb = build_tree(b, sb, pb, warnings, "B");
  Matcher matcher(std::move(ta), std::move(tb));
  Correspondence c = matcher.run();
  c.warnings.insert(c.warnings.begin(), warnings.begin(), warnings.end());
  return c;
}

}  // namespace flopscope
