#include "gui/models/module_diff.h"

#include <cmath>
#include <unordered_map>

#include "gui/models/format.h"

namespace flopscope::gui {

const char* to_string(DiffStatus s) {
  switch (s) {
    case DiffStatus::kSame: return "unchanged";
    case DiffStatus::kChanged: return "changed";
    case DiffStatus::kVanished: return "vanished";
    case DiffStatus::kNew: return "new";
  }
  return "?";
}

const char* to_string(WeightStatus s) {
  switch (s) {
    case WeightStatus::kNone: return "-";
    case WeightStatus::kActive: return "ACTIVE";
    case WeightStatus::kZeroed: return "ZEROED";
    case WeightStatus::kErased: return "ERASED";
  }
  return "?";
}

int ModuleDiff::find(const std::string& path) const {
  for (std::size_t i = 0; i < nodes.size(); ++i)
    if (nodes[i].path == path) return static_cast<int>(i);
  return -1;
}

WeightStatus module_weights(const RunData& run, Id module_id) {
  bool any = false, nonzero = false;
  for (const auto& p : run.params) {
    if (p.module_id != module_id) continue;
    any = true;
    if (p.max_abs != 0) nonzero = true;
  }
  if (!any) return WeightStatus::kNone;
  return nonzero ? WeightStatus::kActive : WeightStatus::kZeroed;
}

namespace {

std::string last_component(const std::string& path) {
  if (path.empty()) return "(model)";
  auto dot = path.rfind('.');
  return dot == std::string::npos ? path : path.substr(dot + 1);
}

// Appends summary modules in pre-order under their parents; returns the node index of each module.
std::vector<int> add_tree(ModuleDiff& d, const RunSummary& s, bool is_b) {
  std::vector<int> node_of(s.modules.size(), -1);
  std::unordered_map<std::string, int> by_path;
  for (std::size_t i = 0; i < d.nodes.size(); ++i) by_path.emplace(d.nodes[i].path, static_cast<int>(i));
  for (std::size_t i = 0; i < s.modules.size(); ++i) {
    const auto& m = s.modules[i];
    auto it = by_path.find(m.path);
    if (it != by_path.end()) {
      int existing = it->second;
      (is_b ? d.nodes[existing].b : d.nodes[existing].a) = static_cast<int>(i);
      node_of[i] = existing;
      continue;
    }
    DiffNode n;
    n.path = m.path;
    n.name = last_component(m.path);
    n.type = m.type;
    n.parent = m.parent >= 0 ? node_of[m.parent] : -1;
    (is_b ? n.b : n.a) = static_cast<int>(i);
    node_of[i] = static_cast<int>(d.nodes.size());
    if (n.parent >= 0) d.nodes[n.parent].children.push_back(node_of[i]);
    d.nodes.push_back(std::move(n));
  }
  return node_of;
}

bool differs(double x, double y, double rel) {
  double scale = std::max(std::abs(x), std::abs(y));
  return scale > 0 && std::abs(x - y) > rel * scale;
}

}  // namespace

ModuleDiff single_run_tree(const RunSummary& a, const RunData& run_a) {
  ModuleDiff d;
  add_tree(d, a, false);
  for (auto& n : d.nodes) n.weights_a = module_weights(run_a, a.modules[n.a].module_id);
  return d;
}

ModuleDiff diff_modules(const RunSummary& a, const RunData& run_a, const RunSummary& b, const RunData& run_b) {
  ModuleDiff d;
  d.diff_mode = true;
  add_tree(d, a, false);
  add_tree(d, b, true);
  for (auto& n : d.nodes) {
    if (n.a >= 0) n.weights_a = module_weights(run_a, a.modules[n.a].module_id);
    if (n.b >= 0) n.weights_b = module_weights(run_b, b.modules[n.b].module_id);
    if (n.b < 0 && n.weights_a != WeightStatus::kNone) n.weights_b = WeightStatus::kErased;
    if (n.a < 0 && n.weights_b != WeightStatus::kNone) n.weights_a = WeightStatus::kErased;
    if (n.b < 0) {
      n.status = DiffStatus::kVanished;
      const auto& m = a.modules[n.a];
      n.verdict = "VANISHED: no ops in B (A: " + format_count(m.inclusive.ops) + " ops, " +
                  format_flops(m.inclusive.flops) + ", " + format_bytes(m.inclusive.bytes()) + ", " +
                  format_ns(m.inclusive_time.p50) + " P50)";
      if (n.weights_a != WeightStatus::kNone) n.verdict += std::string("; weights ") + to_string(n.weights_b);
      ++d.vanished;
    } else if (n.a < 0) {
      n.status = DiffStatus::kNew;
      const auto& m = b.modules[n.b];
      n.verdict = "NEW: only in B (" + format_count(m.inclusive.ops) + " ops, " + format_flops(m.inclusive.flops) +
                  ", " + format_ns(m.inclusive_time.p50) + " P50)";
      ++d.added;
    } else {
      const auto& ma = a.modules[n.a];
      const auto& mb = b.modules[n.b];
      bool compute = differs(ma.inclusive.flops, mb.inclusive.flops, 0.005) ||
                     differs(ma.inclusive.bytes(), mb.inclusive.bytes(), 0.01) ||
                     differs(ma.inclusive.ops, mb.inclusive.ops, 0.0);
      if (compute) {
        n.status = DiffStatus::kChanged;
        n.verdict = "CHANGED: FLOPs " + format_flops(ma.inclusive.flops) + " \u2192 " +
                    format_flops(mb.inclusive.flops) + ", ops " + format_count(ma.inclusive.ops) + " \u2192 " +
                    format_count(mb.inclusive.ops);
        ++d.changed;
      } else if (n.weights_a == WeightStatus::kActive && n.weights_b == WeightStatus::kZeroed) {
        n.status = DiffStatus::kChanged;
        n.verdict = "DORMANT: weights ZEROED in B but compute still runs (" + format_flops(mb.inclusive.flops) +
                    ", " + format_ns(mb.inclusive_time.p50) + " P50)";
        ++d.changed;
      }
    }
  }
  return d;
}

}  // namespace flopscope::gui
