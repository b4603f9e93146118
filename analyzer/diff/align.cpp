#include "analyzer/diff/align.h"

#include <algorithm>
#include <map>
#include <unordered_map>

namespace flopscope {
namespace {

bool has_prefix(const std::string& path, const std::string& prefix) {
  if (prefix.empty()) return true;
  return path.size() >= prefix.size() && path.compare(0, prefix.size(), prefix) == 0 &&
         (path.size() == prefix.size() || path[prefix.size()] == '.');
}

std::string relative(const std::string& path, const std::string& prefix) {
  return path.size() == prefix.size() ? std::string() : path.substr(prefix.size() + 1);
}

// One side's modules and parameters by (rewritten) path.
struct Side {
  std::vector<std::string> path;  // per module index, rewritten
  std::vector<std::string> type;
  std::vector<std::vector<std::size_t>> children;
  std::vector<std::pair<std::string, const ParamRecord*>> params;  // rewritten names, sorted
};

Side index_side(const RunData& run, const SidePaths& paths) {
  Side s;
  std::unordered_map<Id, std::size_t> at;
  for (std::size_t i = 0; i < run.modules.size(); ++i) {
    at.emplace(run.modules[i].id, i);
    s.path.push_back(paths(run.modules[i].path));
    s.type.push_back(run.modules[i].type);
  }
  s.children.resize(run.modules.size());
  for (std::size_t i = 0; i < run.modules.size(); ++i) {
    auto p = at.find(run.modules[i].parent_id);
    if (p != at.end()) s.children[p->second].push_back(i);
  }
  for (const auto& p : run.params) s.params.emplace_back(paths(p.name), &p);
  std::sort(s.params.begin(), s.params.end(), [](const auto& x, const auto& y) { return x.first < y.first; });
  return s;
}

// Fingerprints of one child subtree: types, + parameter shapes, + parameter contents.
struct Print {
  std::string name, type, types, shapes, contents;
  std::map<std::string, std::string> hashes;  // relative parameter name -> content hash
};

Print fingerprint(const Side& s, std::size_t child) {
  Print f;
  const std::string& root = s.path[child];
  auto dot = root.rfind('.');
  f.name = dot == std::string::npos ? root : root.substr(dot + 1);
  f.type = s.type[child];
  for (std::size_t i = 0; i < s.path.size(); ++i) {
    if (has_prefix(s.path[i], root)) f.types += relative(s.path[i], root) + ":" + s.type[i] + ";";
  }
  auto first = std::lower_bound(s.params.begin(), s.params.end(), root,
                                [](const auto& x, const std::string& r) { return x.first < r; });
  for (auto it = first; it != s.params.end() && it->first.compare(0, root.size(), root) == 0; ++it) {
    if (!has_prefix(it->first, root)) continue;
    const ParamRecord& p = *it->second;
    std::string rel = relative(it->first, root) + "=" + p.dtype + "[";
    for (auto d : p.shape) rel += std::to_string(d) + ",";
    f.shapes += rel + "];";
    f.contents += p.sha256.empty() ? rel + "?" : p.sha256;
    f.contents += ";";
    if (!p.sha256.empty()) f.hashes[relative(it->first, root)] = p.sha256;
  }
  return f;
}

// 0: never aligned (the child's own type differs); higher is a better match: same subtree types, same
// parameter shapes, and the share of parameters with identical contents. The last bit keeps the name.
int score(const Print& a, const Print& b) {
  if (a.type != b.type) return 0;
  int s = 10 * (1 + (a.types == b.types ? 1 : 0) + (a.shapes == b.shapes ? 1 : 0));
  if (!a.hashes.empty() || !b.hashes.empty()) {
    std::size_t same = 0;
    for (const auto& [name, hash] : a.hashes) {
      auto it = b.hashes.find(name);
      if (it != b.hashes.end() && it->second == hash) ++same;
    }
    s += static_cast<int>(20 * same / std::max(a.hashes.size(), b.hashes.size()));
  }
  return s * 2 + (a.name == b.name ? 1 : 0);
}

// Modules implied by dotted parameter names: every prefix, the root first; numbered children: a ModuleList.
RunData tree_of_params(const std::vector<ParamRecord>& params) {
  RunData run;
  std::map<std::string, Id> ids;
  std::map<std::string, bool> numbered;  // module path -> every child name is a number
  auto add = [&](const std::string& path) {
    if (ids.count(path) != 0) return ids[path];
    Id id = static_cast<Id>(run.modules.size());
    ids[path] = id;
    auto dot = path.rfind('.');
    std::string parent = path.empty() ? "" : dot == std::string::npos ? "" : path.substr(0, dot);
    run.modules.push_back({id, path.empty() ? kNoId : ids.at(parent), path, ""});
    if (!path.empty()) {
      std::string name = dot == std::string::npos ? path : path.substr(dot + 1);
      bool number = !name.empty() && std::all_of(name.begin(), name.end(), [](char c) { return c >= '0' && c <= '9'; });
      auto [it, fresh] = numbered.emplace(parent, number);
      if (!fresh) it->second = it->second && number;
    }
    return id;
  };
  add("");
  for (const auto& p : params) {
    std::string module = p.name.rfind('.') == std::string::npos ? "" : p.name.substr(0, p.name.rfind('.'));
    for (std::size_t at = 0; at != std::string::npos && at < module.size();) {
      at = module.find('.', at + 1);
      add(module.substr(0, at));
    }
    ParamRecord r = p;
    r.module_id = add(module);
    run.params.push_back(std::move(r));
  }
  for (auto& m : run.modules) {
    auto it = numbered.find(m.path);
    if (it != numbered.end() && it->second) m.type = "ModuleList";
  }
  return run;
}

}  // namespace

std::vector<std::pair<std::string, std::string>> align_param_trees(const std::vector<ParamRecord>& a,
                                                                   const SidePaths& pa,
                                                                   const std::vector<ParamRecord>& b,
                                                                   const SidePaths& pb) {
  return align_containers(tree_of_params(a), pa, tree_of_params(b), pb);
}

namespace {

std::vector<PathMap> concat(const std::vector<PathMap>& x, const std::vector<PathMap>& y) {
  std::vector<PathMap> out = x;
  out.insert(out.end(), y.begin(), y.end());
  return out;
}

template <typename Align>
DiffPaths make_diff_paths(const DiffOptions& options, Align align) {
  DiffPaths d;
  d.a = {concat(options.maps, options.maps_a), {}};
  d.b = {concat(options.maps, options.maps_b), {}};
  for (const auto& m : d.a.maps) d.recorded.push_back("A: " + m.text);
  for (const auto& m : d.b.maps) d.recorded.push_back("B: " + m.text);
  if (options.align_containers) {
    d.b.renames = align(d.a, d.b);
    for (const auto& [from, to] : d.b.renames) d.recorded.push_back("B aligned: " + from + " -> " + to);
  }
  return d;
}

}  // namespace

DiffPaths diff_paths(const RunData& a, const RunData& b, const DiffOptions& options) {
  return make_diff_paths(options, [&](const SidePaths& pa, const SidePaths& pb) {
    return align_containers(a, pa, b, pb);
  });
}

DiffPaths weights_diff_paths(const std::vector<ParamRecord>& a, const std::vector<ParamRecord>& b,
                             const DiffOptions& options) {
  return make_diff_paths(options, [&](const SidePaths& pa, const SidePaths& pb) {
    return align_param_trees(a, pa, b, pb);
  });
}

std::string SidePaths::operator()(const std::string& path) const {
  std::string out = apply_path_maps(maps, path);
  const std::pair<std::string, std::string>* best = nullptr;
  for (const auto& r : renames) {
    if (has_prefix(out, r.first) && (best == nullptr || r.first.size() > best->first.size())) best = &r;
  }
  if (best == nullptr) return out;
  return best->second + out.substr(best->first.size());
}

std::vector<std::pair<std::string, std::string>> align_containers(const RunData& a, const SidePaths& pa,
                                                                  const RunData& b, const SidePaths& pb) {
  Side sa = index_side(a, pa);
  SidePaths current = pb;
  std::vector<std::pair<std::string, std::string>> renames;
  for (std::size_t ca = 0; ca < sa.path.size(); ++ca) {
    if (!is_container_type(sa.type[ca]) || sa.children[ca].empty()) continue;
    // B as aligned so far (outer containers first: A's pre-order).
    current.renames = pb.renames;
    current.renames.insert(current.renames.end(), renames.begin(), renames.end());
    Side sb = index_side(b, current);
    auto found = std::find(sb.path.begin(), sb.path.end(), sa.path[ca]);
    if (found == sb.path.end()) continue;
    auto cb = static_cast<std::size_t>(found - sb.path.begin());
    if (sb.type[cb] != sa.type[ca]) continue;
    const auto& kids_a = sa.children[ca];
    const auto& kids_b = sb.children[cb];
    std::vector<Print> fa, fb;
    for (auto k : kids_a) fa.push_back(fingerprint(sa, k));
    for (auto k : kids_b) fb.push_back(fingerprint(sb, k));
    const std::size_t n = fa.size(), m = fb.size();
    // Weighted longest common subsequence: children keep their order in a container.
    std::vector<std::vector<int>> dp(n + 1, std::vector<int>(m + 1, 0));
    for (std::size_t i = 1; i <= n; ++i) {
      for (std::size_t j = 1; j <= m; ++j) {
        dp[i][j] = std::max(dp[i - 1][j], dp[i][j - 1]);
        int w = score(fa[i - 1], fb[j - 1]);
        if (w > 0) dp[i][j] = std::max(dp[i][j], dp[i - 1][j - 1] + w);
      }
    }
    std::vector<int> match_of_b(m, -1);
    for (std::size_t i = n, j = m; i > 0 && j > 0;) {
      int w = score(fa[i - 1], fb[j - 1]);
      if (w > 0 && dp[i][j] == dp[i - 1][j - 1] + w) {
        match_of_b[j - 1] = static_cast<int>(i - 1);
        --i;
        --j;
      } else if (dp[i][j] == dp[i - 1][j]) {
        --i;
      } else {
        --j;
      }
    }
    std::map<std::string, bool> a_names;
    for (const auto& f : fa) a_names[f.name] = true;
    // Keys are B paths after B's maps only (SidePaths applies one rename, the longest).
    for (std::size_t j = 0; j < m; ++j) {
      std::string key = apply_path_maps(pb.maps, b.modules[kids_b[j]].path);
      std::string b_now = sb.path[kids_b[j]];
      std::string target;
      if (match_of_b[j] >= 0) {
        target = sa.path[kids_a[static_cast<std::size_t>(match_of_b[j])]];
      } else if (a_names.count(fb[j].name) != 0) {
        target = b_now + "@B";
      } else {
        continue;
      }
      if (target != b_now) renames.emplace_back(key, target);
    }
  }
  return renames;
}

}  // namespace flopscope
