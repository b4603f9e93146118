#include "analyzer/diff/weights_join.h"

#include <optional>

#include "analyzer/weights/tensor_similarity.h"

namespace flopscope {
namespace {

void add(WeightSide& w, const ParamRecord& p, WeightState s) {
  ++w.params;
  w.numel += p.numel;
  w.bytes += p.bytes;
  if (s == WeightState::kZeroed) ++w.zeroed;
  if (s == WeightState::kErased) ++w.erased;
}

void settle(WeightSide& w) {
  if (w.params == 0)
    w.state = WeightState::kNone;
  else if (w.erased == w.params)
    w.state = WeightState::kErased;
  else if (w.zeroed + w.erased == w.params)
    w.state = WeightState::kZeroed;
  else
    w.state = WeightState::kActive;
}

}  // namespace

WeightState param_state(const ParamRecord& p, double atol) {
  if (p.numel == 0) return WeightState::kErased;
  if (p.nonzero_fraction == 0 || p.max_abs <= atol) return WeightState::kZeroed;
  return WeightState::kActive;
}

ParamIndex index_params(const RunData& run, const SidePaths& paths, double atol) {
  ParamIndex index;
  for (const auto& p : run.params) {
    std::string name = paths(p.name);
    if (!index.by_name.emplace(name, &p).second) continue;  // a tied parameter listed twice
    index.mapped_name.emplace(name, apply_path_maps(paths.maps, p.name));
    index.names.push_back(name);
    WeightState s = param_state(p, atol);
    for_each_owner(name, [&](const std::string& owner) { add(index.by_module[owner], p, s); });
  }
  for (auto& [path, w] : index.by_module) settle(w);
  return index;
}

std::vector<ParamDiff> join_params(const ParamIndex& a, const ParamIndex& b, double atol,
                                   std::unordered_map<std::string, bool>* changed_modules) {
  std::vector<ParamDiff> out;
  auto mark = [&](const std::string& name) {
    for_each_owner(name, [&](const std::string& owner) { (*changed_modules)[owner] = true; });
  };
  // Where a tensor went, or came from, by content: only for those without a partner by name.
  auto index_of = [](const ParamIndex& side) {
    std::vector<const ParamRecord*> all;
    all.reserve(side.names.size());
    for (const auto& n : side.names) all.push_back(side.by_name.at(n));
    return ContentIndex(all);
  };
  std::optional<ContentIndex> content_a, content_b;
  for (const auto& name : a.names) {
    const ParamRecord* pa = a.by_name.at(name);
    ParamDiff d;
    d.name = name;
    d.state_a = param_state(*pa, atol);
    d.bytes_a = pa->bytes;
    auto it = b.by_name.find(name);
    if (it == b.by_name.end()) {
      d.changed = true;
      if (!content_b) content_b.emplace(index_of(b));
      // A constant tensor (a zero bias, a fresh LayerNorm's ones) equals many others: no evidence of a move.
      const ContentIndex::Match found =
          identifies_content(*pa) ? content_b->find(*pa) : ContentIndex::Match{};
      if (found.tensor != nullptr) {
        d.moved_to = found.tensor->name;
        d.relation = found.relation;
        d.similarity = found.similarity;
      }
    } else {
      const ParamRecord* pb = it->second;
      d.state_b = param_state(*pb, atol);
      d.bytes_b = pb->bytes;
      d.changed = pa->dtype != pb->dtype || pa->shape != pb->shape || pa->sha256 != pb->sha256 ||
                  (pa->sha256.empty() && (pa->l2 != pb->l2 || pa->max_abs != pb->max_abs));
      // Joined through the module matching under another name of B's own: say where it is in B.
      if (a.mapped_name.at(name) != b.mapped_name.at(name)) {
        d.moved_to = pb->name;
        d.relation = content_relation(*pa, *pb);
        d.similarity =
            d.relation == ContentRelation::kExact ? 1.0 : sketch_similarity(*pa, *pb).value_or(0.0);
      }
    }
    if (d.changed) mark(name);
    out.push_back(std::move(d));
  }
  for (const auto& name : b.names) {
    if (a.by_name.count(name) != 0) continue;
    const ParamRecord* pb = b.by_name.at(name);
    ParamDiff d;
    d.name = name;
    d.state_b = param_state(*pb, atol);
    d.bytes_b = pb->bytes;
    d.changed = true;
    if (!content_a) content_a.emplace(index_of(a));
    const ContentIndex::Match found = identifies_content(*pb) ? content_a->find(*pb) : ContentIndex::Match{};
    if (found.tensor != nullptr) {
      d.moved_from = found.tensor->name;
      d.relation = found.relation;
      d.similarity = found.similarity;
    }
    mark(name);
    out.push_back(std::move(d));
  }
  return out;
}

}  // namespace flopscope
