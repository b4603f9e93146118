#include "db/module_names.h"

#include <algorithm>
#include <cstdint>

#include "db/model/input_limits.h"

namespace flopscope {

StoredModuleName stored_module_name(std::string_view path, std::string_view parent_path) {
  if (!parent_path.empty() && path.size() > parent_path.size() && path.starts_with(parent_path) &&
      path[parent_path.size()] == '.') {
    return {path.substr(parent_path.size() + 1), true};
  }
  return {path, false};
}

Status build_module_paths(const std::string& file, std::vector<StoredModule>&& rows,
                          std::vector<ModuleRecord>& out) {
  constexpr std::size_t kNone = static_cast<std::size_t>(-1);
  const std::size_t n = rows.size();
  auto corrupt = [&](Id id, const std::string& what) {
    return Corrupt(file + ": module " + std::to_string(id) + ": " + what + " (a damaged or crafted file)");
  };
  std::vector<std::size_t> parent(n, kNone);
  for (std::size_t i = 0; i < n; ++i) {
    if (!rows[i].relative) continue;
    const Id want = rows[i].record.parent_id;
    auto it = std::lower_bound(rows.begin(), rows.end(), want,
                               [](const StoredModule& r, Id id) { return r.record.id < id; });
    if (it == rows.end() || it->record.id != want) {
      return corrupt(rows[i].record.id, "its path continues the path of module " + std::to_string(want) +
                                            ", which is not in the run");
    }
    parent[i] = static_cast<std::size_t>(it - rows.begin());
  }

  // Parents before children: walk up from each row to one already placed; meeting the walk itself is a cycle.
  std::vector<std::uint8_t> state(n, 0);  // 0 not seen, 1 on the current walk, 2 placed
  std::vector<std::size_t> order, walk;
  order.reserve(n);
  for (std::size_t i = 0; i < n; ++i) {
    std::size_t j = i;
    while (j != kNone && state[j] == 0) {
      state[j] = 1;
      walk.push_back(j);
      j = parent[j];
    }
    if (j != kNone && state[j] == 1) return corrupt(rows[j].record.id, "its parents form a cycle");
    for (auto it = walk.rbegin(); it != walk.rend(); ++it) {
      state[*it] = 2;
      order.push_back(*it);
    }
    walk.clear();
  }

  // Depth (as path_depth counts it: dots + 1) and length of every path, known before any is built.
  std::vector<std::size_t> length(n), dots(n);
  for (std::size_t i : order) {
    const std::string& name = rows[i].record.path;
    const auto own = static_cast<std::size_t>(std::count(name.begin(), name.end(), '.'));
    const bool rel = rows[i].relative;
    length[i] = rel ? length[parent[i]] + 1 + name.size() : name.size();
    dots[i] = rel ? dots[parent[i]] + 1 + own : own;
    if (length[i] > 0) FS_RETURN_IF_ERROR(check_module_depth(file, dots[i] + 1));
  }

  out.clear();
  out.resize(n);
  for (std::size_t i : order) {
    ModuleRecord& m = out[i];
    StoredModule& r = rows[i];
    m.id = r.record.id;
    m.parent_id = r.record.parent_id;
    m.type = std::move(r.record.type);
    if (!r.relative) {
      m.path = std::move(r.record.path);
      continue;
    }
    const std::string& base = out[parent[i]].path;
    m.path.reserve(length[i]);
    m.path.append(base).append(1, '.').append(r.record.path);
    std::string().swap(r.record.path);
  }
  return {};
}

}  // namespace flopscope
