#include "analyzer/diff/weights_join.h"

namespace flopscope {
namespace {

// Calls f("") and f(p) for every dotted prefix p of the module that owns `name` ("a.b.weight" -> "a", "a.b").
template <typename F>
void for_each_owner(const std::string& name, F&& f) {
  f(std::string());
  for (std::size_t dot = name.find('.'); dot != std::string::npos; dot = name.find('.', dot + 1)) {
    f(name.substr(0, dot));
  }
}

void add(WeightSide& w, const ParamRecord& p, WeightState s) {
  ++w.params;
  w.numel += p.numel;
  w.bytes += p.bytes;
  if (s == WeightState::kZeroed) ++w.zeroed;
  if (s == WeightState::kErased) ++w.erased;
}

void settle(WeightSide& w) {
  if (w.params == 0) w.state = WeightState::kNone;
  else if (w.erased == w.params) w.state = WeightState::kErased;
  else if (w.zeroed + w.erased == w.params) w.state = WeightState::kZeroed;
  else w.state = WeightState::kActive;
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
  for (const auto& name : a.names) {
    const ParamRecord* pa = a.by_name.at(name);
    ParamDiff d;
    d.name = name;
    d.state_a = param_state(*pa, atol);
    d.bytes_a = pa->bytes;
    auto it = b.by_name.find(name);
    if (it == b.by_name.end()) {
      d.changed = true;
    } else {
      const ParamRecord* pb = it->second;
      d.state_b = param_state(*pb, atol);
      d.bytes_b = pb->bytes;
      d.changed = pa->dtype != pb->dtype || pa->shape != pb->shape || pa->sha256 != pb->sha256 ||
                  (pa->sha256.empty() && (pa->l2 != pb->l2 || pa->max_abs != pb->max_abs));
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
    mark(name);
    out.push_back(std::move(d));
  }
  return out;
}

}  // namespace flopscope
