#include "analyzer/importers/module_scopes.h"

#include <algorithm>
#include <unordered_map>
#include <utility>

namespace flopscope {
namespace {

std::string clean_segment(std::string_view s) {
  std::string out(s);
  std::replace(out.begin(), out.end(), '.', '_');
  if (out.empty()) out = "_";
  return out;
}

}  // namespace

NamedScopes name_scopes(std::span<const ScopeSpan> scopes, bool single_top_is_root) {
  NamedScopes out;
  out.node.assign(scopes.size(), -1);

  // Instance tree: (parent node, instance name) -> node, nodes in order of first call.
  struct Node {
    std::int32_t parent;
    std::string_view instance;
    std::string_view type;
    std::vector<std::int32_t> children;
  };
  std::vector<Node> nodes;
  std::vector<std::int32_t> top;
  // Hashed, not ordered: 200,000 sibling modules cost a lookup each, not a log of string compares.
  struct KeyHash {
    std::size_t operator()(const std::pair<std::int32_t, std::string_view>& k) const {
      return std::hash<std::string_view>{}(k.second) * 31 + static_cast<std::size_t>(k.first);
    }
  };
  std::unordered_map<std::pair<std::int32_t, std::string_view>, std::int32_t, KeyHash> index;
  std::vector<std::size_t> stack;  // scope indices enclosing the current one on this thread
  for (std::size_t i = 0; i < scopes.size(); ++i) {
    const auto& s = scopes[i];
    while (!stack.empty() &&
           (scopes[stack.back()].thread != s.thread || scopes[stack.back()].end_ns < s.end_ns ||
            scopes[stack.back()].end_ns <= s.start_ns)) {
      stack.pop_back();
    }
    std::int32_t parent = stack.empty() ? -1 : out.node[stack.back()];
    auto [it, added] = index.try_emplace({parent, s.instance}, static_cast<std::int32_t>(nodes.size()));
    if (added) {
      nodes.push_back({parent, s.instance, s.type, {}});
      (parent < 0 ? top : nodes[static_cast<std::size_t>(parent)].children).push_back(it->second);
    }
    out.node[i] = it->second;
    stack.push_back(i);
  }

  out.parent.resize(nodes.size());
  out.segment.resize(nodes.size());
  out.type.resize(nodes.size());
  for (std::size_t n = 0; n < nodes.size(); ++n) {
    out.parent[n] = nodes[n].parent;
    out.type[n] = std::string(nodes[n].type);
  }
  // Names the children of one node from their classes and order among same-class siblings.
  auto name_children = [&](const std::vector<std::int32_t>& children) {
    std::unordered_map<std::string_view, int> per_type;
    for (auto c : children) ++per_type[nodes[static_cast<std::size_t>(c)].type];
    std::unordered_map<std::string_view, int> ordinal;
    for (auto c : children) {
      const auto& n = nodes[static_cast<std::size_t>(c)];
      std::string segment = clean_segment(n.type);
      if (per_type[n.type] > 1) segment += "_" + std::to_string(ordinal[n.type]++);
      out.segment[static_cast<std::size_t>(c)] = std::move(segment);
    }
  };
  if (single_top_is_root && top.size() == 1) {
    out.segment[static_cast<std::size_t>(top[0])] = "";  // the root
  } else {
    name_children(top);
  }
  for (const auto& n : nodes) name_children(n.children);
  return out;
}

std::string NamedScopes::path(std::int32_t n) const {
  std::vector<std::int32_t> chain;
  // Parents precede their children, so the walk ends; bounded by the node count all the same.
  std::size_t steps = 0;
  for (std::int32_t i = n; i >= 0 && steps++ <= segment.size(); i = parent[static_cast<std::size_t>(i)]) {
    if (!segment[static_cast<std::size_t>(i)].empty()) chain.push_back(i);
  }
  std::string out;
  for (auto it = chain.rbegin(); it != chain.rend(); ++it) {
    if (!out.empty()) out += '.';
    out += segment[static_cast<std::size_t>(*it)];
  }
  return out;
}

}  // namespace flopscope
