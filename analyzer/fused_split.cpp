#include "analyzer/fused_split.h"

#include <algorithm>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

namespace flopscope {
namespace {

bool is_any(std::string_view name, std::initializer_list<std::string_view> names) {
  return std::find(names.begin(), names.end(), name) != names.end();
}

bool is_norm(std::string_view name) {
  return is_any(name, {"aten::layer_norm", "aten::native_layer_norm"});
}
bool is_scores(std::string_view name) {
  return is_any(name, {"aten::bmm", "aten::baddbmm"});
}
bool is_projection(std::string_view name) {
  return is_any(name, {"aten::mm", "aten::addmm", "aten::linear", "aten::matmul", "aten::_addmm_activation"});
}

// The submodule of each direct child of one _transformer_encoder_layer_fwd call (children in start order),
// following the fast path's order (torch 1.12-1.13, norm_first or not): [norm1] in-projection, scores,
// softmax, context (self_attn), out-projection (self_attn.out_proj), residual add, [norm1], [norm2], linear1
// (with its activation when fused), linear2, residual add, [norm2]. Empty when the children do not follow it.
std::vector<Id> encoder_layer_owners(const std::vector<const OpRecord*>& children, Id layer,
                                     const std::unordered_map<std::string, Id>& child_of_layer) {
  auto id = [&](const char* name, Id fallback) {
    auto it = child_of_layer.find(name);
    return it == child_of_layer.end() ? fallback : it->second;
  };
  Id attn = id("self_attn", kNoId), lin1 = id("linear1", kNoId), lin2 = id("linear2", kNoId);
  if (attn == kNoId || lin1 == kNoId || lin2 == kNoId) return {};
  Id out_proj = id("self_attn.out_proj", attn);
  Id norms[2] = {id("norm1", layer), id("norm2", layer)};
  enum Stage { kAttention, kAfterAttention, kFeedForward, kDone } stage = kAttention;
  bool scores = false;
  int norms_seen = 0;
  std::vector<Id> owners;
  for (const OpRecord* op : children) {
    const std::string& n = op->name;
    Id owner = layer;
    if (is_norm(n)) {
      if (norms_seen == 2) return {};
      owner = norms[norms_seen++];
    } else if (stage == kAttention) {
      owner = attn;
      if (is_scores(n)) {
        scores = true;
      } else if (is_projection(n) && scores) {
        owner = out_proj;
        stage = kAfterAttention;
      }
    } else if (is_scores(n)) {
      return {};  // a second attention: not this layout
    } else if (is_projection(n) && stage != kDone) {
      owner = stage == kAfterAttention ? lin1 : lin2;
      stage = stage == kAfterAttention ? kFeedForward : kDone;
    }
    owners.push_back(owner);
  }
  if (stage != kDone || norms_seen != 2) return {};
  return owners;
}

}  // namespace

FusedSplit split_fused_ops(RunData& run) {
  FusedSplit result;
  std::unordered_map<Id, const ModuleRecord*> module_by_id;
  std::unordered_map<std::string, Id> id_by_path;
  for (const auto& m : run.modules) {
    module_by_id[m.id] = &m;
    id_by_path[m.path] = m.id;
  }
  std::unordered_map<Id, std::vector<std::size_t>> children;  // op id -> indices of its direct children
  std::unordered_map<Id, std::size_t> at;
  for (std::size_t i = 0; i < run.ops.size(); ++i) {
    at[run.ops[i].id] = i;
    if (run.ops[i].parent_op_id != kNoId) children[run.ops[i].parent_op_id].push_back(i);
  }
  for (auto& [parent, kids] : children) {
    std::sort(kids.begin(), kids.end(),
              [&](std::size_t a, std::size_t b) { return run.ops[a].sequence < run.ops[b].sequence; });
  }
  // Every op below `i` (bounded: a damaged run's parent links may cycle).
  auto set_subtree = [&](std::size_t i, Id module) {
    std::vector<std::size_t> stack{i};
    for (std::size_t steps = 0; !stack.empty() && steps <= run.ops.size(); ++steps) {
      std::size_t k = stack.back();
      stack.pop_back();
      run.ops[k].module_id = module;
      auto it = children.find(run.ops[k].id);
      if (it != children.end()) stack.insert(stack.end(), it->second.begin(), it->second.end());
    }
  };
  for (std::size_t i = 0; i < run.ops.size(); ++i) {
    const OpRecord& fused = run.ops[i];
    if (fused.name != "aten::_transformer_encoder_layer_fwd") continue;
    auto m = module_by_id.find(fused.module_id);
    auto kids = children.find(fused.id);
    if (m == module_by_id.end() || kids == children.end()) {
      ++result.unsplit_ops;
      continue;
    }
    const std::string prefix = m->second->path.empty() ? "" : m->second->path + ".";
    std::unordered_map<std::string, Id> child_of_layer;
    for (const char* name : {"self_attn", "self_attn.out_proj", "linear1", "linear2", "norm1", "norm2"}) {
      auto it = id_by_path.find(prefix + name);
      if (it != id_by_path.end()) child_of_layer[name] = it->second;
    }
    std::vector<const OpRecord*> ordered;
    for (std::size_t k : kids->second) ordered.push_back(&run.ops[k]);
    std::vector<Id> owners = encoder_layer_owners(ordered, fused.module_id, child_of_layer);
    if (owners.empty()) {
      ++result.unsplit_ops;
      continue;
    }
    for (std::size_t k = 0; k < owners.size(); ++k) set_subtree(kids->second[k], owners[k]);
    ++result.fused_ops;
  }
  return result;
}

}  // namespace flopscope
