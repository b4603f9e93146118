#include "db/model/module_path.h"

namespace flopscope {

std::string short_type_name(std::string_view qualified) {
  auto dot = qualified.rfind('.');
  return std::string(dot == std::string_view::npos ? qualified : qualified.substr(dot + 1));
}

ModuleTree::ModuleTree(std::vector<ModuleRecord> modules) : modules_(std::move(modules)) {
  for (std::size_t i = 0; i < modules_.size(); ++i) {
    const auto& m = modules_[i];
    by_path_[m.path] = m.id;
    index_[m.id] = i;
    if (m.parent_id != kNoId) children_[m.parent_id].push_back(m.id);
  }
}

Id ModuleTree::find(std::string_view path) const {
  auto it = by_path_.find(std::string(path));
  return it == by_path_.end() ? kNoId : it->second;
}

Id ModuleTree::parent_of(Id id) const {
  auto it = index_.find(id);
  return it == index_.end() ? kNoId : modules_[it->second].parent_id;
}

std::vector<Id> ModuleTree::chain(Id id) const {
  std::vector<Id> out;
  // Bounded by the module count: a parent cycle in a damaged run must not loop forever.
  for (Id m = id; m != kNoId && parent_of(m) != kNoId && out.size() <= modules_.size(); m = parent_of(m))
    out.push_back(m);
  return {out.rbegin(), out.rend()};
}

Id ModuleTree::resolve(const std::vector<ModuleFrame>& frames, std::vector<Id>* ambiguous_out) const {
  if (modules_.empty()) return kNoId;
  Id current = modules_[0].id;
  for (const auto& frame : frames) {
    const std::string& base = modules_[index_.at(current)].path;
    auto child_path = [&](const std::string& name) { return base.empty() ? name : base + "." + name; };
    Id direct = find(child_path(frame.name));
    if (direct != kNoId) {
      current = direct;
      continue;
    }
    // The frame skipped a container: look one level down through each child of the current module.
    Id match = kNoId;
    bool ambiguous = false;
    std::vector<Id> candidates;
    auto kids = children_.find(current);
    if (kids != children_.end()) {
      for (Id container : kids->second) {
        Id candidate = find(modules_[index_.at(container)].path + "." + frame.name);
        if (candidate == kNoId) continue;
        bool type_ok = frame.type.empty() || modules_[index_.at(candidate)].type == frame.type;
        if (!type_ok) continue;
        if (match != kNoId) ambiguous = true;
        match = candidate;
        candidates.push_back(candidate);
      }
    }
    if (ambiguous && ambiguous_out != nullptr) *ambiguous_out = std::move(candidates);
    if (match == kNoId || ambiguous) break;
    current = match;
  }
  return current;
}

std::vector<ModuleFrame> parse_torchscript_hierarchy(const std::vector<std::string>& entries) {
  std::vector<ModuleFrame> frames;
  for (const auto& e : entries) {
    // "name(Type)::method"
    auto open = e.find('(');
    auto close = e.find(')', open == std::string::npos ? 0 : open);
    if (open == std::string::npos || close == std::string::npos || open == 0) continue;
    std::string name = e.substr(0, open);
    if (name == "TOP" || name == "SELF") continue;
    frames.push_back({name, short_type_name(e.substr(open + 1, close - open - 1))});
  }
  return frames;
}

int path_depth(std::string_view path) {
  if (path.empty()) return 0;
  int depth = 1;
  for (char c : path) depth += c == '.' ? 1 : 0;
  return depth;
}

std::string_view path_parent(std::string_view path) {
  auto dot = path.rfind('.');
  return dot == std::string_view::npos ? std::string_view() : path.substr(0, dot);
}

std::string_view path_leaf(std::string_view path) {
  auto dot = path.rfind('.');
  return dot == std::string_view::npos ? path : path.substr(dot + 1);
}

std::string_view path_prefix(std::string_view path, int depth) {
  if (depth <= 0) return {};
  std::size_t pos = 0;
  for (int i = 0; i < depth; ++i) {
    pos = path.find('.', pos);
    if (pos == std::string_view::npos) return path;
    if (i + 1 < depth) ++pos;
  }
  return path.substr(0, pos);
}

}  // namespace flopscope
