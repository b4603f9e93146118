#include "analyzer/module_params.h"

#include <algorithm>
#include <string_view>
#include <unordered_map>

#include "analyzer/format.h"
#include "analyzer/module_order.h"
#include "db/model/dtype.h"
#include "db/model/module_path.h"

namespace flopscope {
namespace {

std::int64_t tensor_bytes(const ParamRecord& p) {
  if (p.bytes > 0 || p.numel == 0) return p.bytes;
  return p.numel * dtype_size(p.dtype);
}

void add(ParamCount& to, const ParamCount& c) {
  to.tensors += c.tensors;
  to.elements += c.elements;
  to.bytes += c.bytes;
}

}  // namespace

std::vector<ModuleParams> module_params(const RunSummary& s, const std::vector<ParamRecord>& params) {
  if (params.empty()) return {};
  std::vector<ModuleParams> out(s.modules.size());
  if (s.modules.empty()) return out;
  std::unordered_map<std::string_view, std::size_t> by_path;
  for (std::size_t i = 0; i < s.modules.size(); ++i) by_path.emplace(s.modules[i].path, i);
  for (const auto& p : params) {
    std::string_view owner = path_parent(p.name);
    auto it = by_path.find(owner);
    while (it == by_path.end() && !owner.empty()) {
      owner = path_parent(owner);
      it = by_path.find(owner);
    }
    const std::size_t at = it == by_path.end() ? 0 : it->second;
    add(out[at].own, ParamCount{1, p.numel, tensor_bytes(p)});
  }
  for (std::size_t i : modules_deepest_first(s)) {
    add(out[i].total, out[i].own);
    const int parent = s.modules[i].parent;
    if (parent >= 0) add(out[static_cast<std::size_t>(parent)].total, out[i].total);
  }
  return out;
}

ParamCells param_cells(const std::vector<ModuleParams>& params, std::size_t module) {
  if (module >= params.size()) return {"-", "-", "-"};
  const ModuleParams& p = params[module];
  return {param_count_text(p.total.elements), param_count_text(p.own.elements),
          bytes_text(static_cast<double>(p.total.bytes))};
}

std::string param_count_text(std::int64_t elements) {
  std::string t = si_text(static_cast<double>(elements), "");
  if (!t.empty() && t.back() == ' ') t.pop_back();
  return t;
}

}  // namespace flopscope
