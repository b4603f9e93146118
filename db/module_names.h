// Module paths as the run database stores them since schema 9: each module its own part of the path, under
// its parent's (`module_node`), so a deep hierarchy is stored in linear text. Internal to db/.
#pragma once

#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "db/model/records.h"
#include "db/model/status.h"

namespace flopscope {

// A module's stored form: `name` is what follows the parent's path and a '.' when relative, else the whole
// path (a root, a module whose parent is the root or not in the same batch, a path that does not extend its
// parent's).
struct StoredModuleName {
  std::string_view name;  // a view into the path given to stored_module_name
  bool relative = false;
};

// Splits `path` against its parent's path. Relative only when the parent's path is not empty, so a
// relative name always joins with a '.'.
StoredModuleName stored_module_name(std::string_view path, std::string_view parent_path);

// One module row as read: record.path holds the stored name until build_module_paths replaces it.
struct StoredModule {
  ModuleRecord record;
  bool relative = false;
};

// Builds every path once, from its parent's, into `out` (rows must be in id order, ids unique). Refused
// before any path is built: a relative row whose parent is missing or whose parents form a cycle (Corrupt),
// and a hierarchy deeper than --max-module-depth (Unsupported). `file` names the run in messages.
Status build_module_paths(const std::string& file, std::vector<StoredModule>&& rows,
                          std::vector<ModuleRecord>& out);

}  // namespace flopscope
