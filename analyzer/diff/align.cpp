#include "analyzer/diff/align.h"

#include <algorithm>
#include <map>

#include "db/model/module_path.h"

namespace flopscope {
namespace {

// Modules implied by dotted parameter names: every prefix, the root first; numbered children: a ModuleList.
RunData tree_of_params(const std::vector<ParamRecord>& params) {
  RunData run;
  std::map<std::string, Id> ids;
  std::map<std::string, bool> numbered;  // module path -> every child name is a number
  auto add = [&](const std::string& path) {
    if (ids.count(path) != 0) return ids[path];
    Id id = static_cast<Id>(run.modules.size());
    ids[path] = id;
    const std::string parent(path_parent(path));
    run.modules.push_back({id, path.empty() ? kNoId : ids.at(parent), path, ""});
    if (!path.empty()) {
      const std::string_view name = path_leaf(path);
      bool number =
          !name.empty() && std::all_of(name.begin(), name.end(), [](char c) { return c >= '0' && c <= '9'; });
      auto [it, fresh] = numbered.emplace(parent, number);
      if (!fresh) it->second = it->second && number;
    }
    return id;
  };
  add("");
  for (const auto& p : params) {
    const std::string module(path_parent(p.name));  // the module that owns the tensor
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

std::vector<PathMap> concat(const std::vector<PathMap>& x, const std::vector<PathMap>& y) {
  std::vector<PathMap> out = x;
  out.insert(out.end(), y.begin(), y.end());
  return out;
}

template <typename Match>
DiffPaths make_diff_paths(const DiffOptions& options, Match match) {
  DiffPaths d;
  d.a.maps = concat(options.maps, options.maps_a);
  d.b.maps = concat(options.maps, options.maps_b);
  d.a.one_sided_from = d.b.one_sided_from = options.maps.size();
  for (const auto& m : d.a.maps) d.recorded.push_back("A: " + m.text);
  for (const auto& m : d.b.maps) d.recorded.push_back("B: " + m.text);
  if (options.align_containers) {
    d.matches = match(d.a, d.b);
    d.b.set_renames(d.matches.renames);
    for (const auto& [from, to] : d.b.renames()) d.recorded.push_back("B aligned: " + from + " -> " + to);
  }
  return d;
}

}  // namespace

DiffPaths diff_paths(const RunData& a, const RunData& b, const DiffOptions& options,
                     const RunSummary* summary_a, const RunSummary* summary_b) {
  return make_diff_paths(options, [&](const SidePaths& pa, const SidePaths& pb) {
    return match_modules(a, summary_a, pa, b, summary_b, pb);
  });
}

DiffPaths weights_diff_paths(const std::vector<ParamRecord>& a, const std::vector<ParamRecord>& b,
                             const DiffOptions& options) {
  const RunData ta = tree_of_params(a), tb = tree_of_params(b);
  return make_diff_paths(options, [&](const SidePaths& pa, const SidePaths& pb) {
    return match_modules(ta, nullptr, pa, tb, nullptr, pb);
  });
}

void SidePaths::set_renames(std::vector<std::pair<std::string, std::string>> renames) {
  renames_ = std::move(renames);
  rename_of_.clear();
  rename_of_.reserve(renames_.size());
  for (std::size_t i = 0; i < renames_.size(); ++i) rename_of_.emplace(renames_[i].first, i);
}

std::string SidePaths::operator()(const std::string& path) const {
  std::string out = apply_path_maps(maps, path);
  if (rename_of_.empty()) return out;
  // The whole path, then each shorter prefix that ends at a component boundary; the root ("") last.
  for (std::size_t end = out.size();;) {
    auto it = rename_of_.find(out.substr(0, end));
    if (it != rename_of_.end()) return renames_[it->second].second + out.substr(end);
    if (end == 0) return out;
    const std::size_t dot = out.rfind('.', end - 1);
    end = dot == std::string::npos ? 0 : dot;
  }
}

}  // namespace flopscope
