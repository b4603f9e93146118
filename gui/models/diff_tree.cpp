#include "gui/models/diff_tree.h"

#include <unordered_map>

#include "analyzer/diff/weights_join.h"

namespace flopscope::gui {

int DiffTree::find(const std::string& path) const {
  for (std::size_t i = 0; i < nodes.size(); ++i)
    if (nodes[i].path == path) return static_cast<int>(i);
  return -1;
}

const flopscope::ModuleDiff* DiffTree::entry(const DiffNode& n) const {
  return engine && n.entry >= 0 ? &engine->modules[static_cast<std::size_t>(n.entry)] : nullptr;
}

Verdict DiffTree::verdict(const DiffNode& n) const {
  const auto* e = entry(n);
  return e ? e->verdict : Verdict::kUnchanged;
}

WeightState DiffTree::weights_a(const DiffNode& n) const {
  const auto* e = entry(n);
  return e ? e->weights_a.state : n.weights;
}

WeightState DiffTree::weights_b(const DiffNode& n) const {
  const auto* e = entry(n);
  return e ? e->weights_b.state : WeightState::kNone;
}

const std::string& DiffTree::verdict_text(const DiffNode& n) const {
  static const std::string kNone;
  const auto* e = entry(n);
  return e && e->verdict != Verdict::kUnchanged ? e->verdict_text : kNone;
}

int DiffTree::count(Verdict v) const {
  return engine ? engine->modules_by_verdict[static_cast<int>(v)] : 0;
}

WeightState module_weights(const RunData& run, Id module_id) {
  bool any = false, nonzero = false;
  for (const auto& p : run.params) {
    if (p.module_id != module_id) continue;
    any = true;
    if (param_state(p, 0) == WeightState::kActive) nonzero = true;
  }
  if (!any) return WeightState::kNone;
  return nonzero ? WeightState::kActive : WeightState::kZeroed;
}

namespace {

std::string last_component(const std::string& path) {
  if (path.empty()) return "(model)";
  auto dot = path.rfind('.');
  return dot == std::string::npos ? path : path.substr(dot + 1);
}

}  // namespace

DiffTree single_run_tree(const RunSummary& a, const RunData& run_a) {
  DiffTree d;
  std::vector<int> node_of(a.modules.size(), -1);
  for (std::size_t i = 0; i < a.modules.size(); ++i) {
    const auto& m = a.modules[i];
    DiffNode n;
    n.path = m.path;
    n.name = last_component(m.path);
    n.type = m.type;
    n.parent = m.parent >= 0 ? node_of[static_cast<std::size_t>(m.parent)] : -1;
    n.a = static_cast<int>(i);
    n.weights = module_weights(run_a, m.module_id);
    node_of[i] = static_cast<int>(d.nodes.size());
    if (n.parent >= 0) d.nodes[static_cast<std::size_t>(n.parent)].children.push_back(node_of[i]);
    d.nodes.push_back(std::move(n));
  }
  return d;
}

DiffTree diff_tree(const RunSummary& a, const RunData& run_a, const RunSummary& b, const RunData& run_b,
                   const DiffOptions& options) {
  DiffTree d;
  d.diff_mode = true;
  auto engine = std::make_shared<RunDiff>(diff_runs(run_a, a, run_b, b, options));
  // The engine lists A's modules in pre-order, then B's own in B's pre-order: a parent always comes first.
  std::unordered_map<std::string, int> by_path;
  for (std::size_t i = 0; i < engine->modules.size(); ++i) {
    const auto& m = engine->modules[i];
    DiffNode n;
    n.path = m.path;
    n.name = last_component(m.path);
    n.type = m.type;
    n.a = m.summary_a;
    n.b = m.summary_b;
    n.entry = static_cast<int>(i);
    if (!m.path.empty()) {
      for (auto dot = m.path.rfind('.');; dot = m.path.rfind('.', dot - 1)) {
        std::string parent = dot == std::string::npos ? std::string() : m.path.substr(0, dot);
        auto it = by_path.find(parent);
        if (it != by_path.end()) {
          n.parent = it->second;
          break;
        }
        if (dot == std::string::npos || dot == 0) break;
      }
    }
    int index = static_cast<int>(d.nodes.size());
    if (n.parent >= 0) d.nodes[static_cast<std::size_t>(n.parent)].children.push_back(index);
    by_path.emplace(n.path, index);
    d.nodes.push_back(std::move(n));
  }
  d.engine = std::move(engine);
  return d;
}

}  // namespace flopscope::gui
