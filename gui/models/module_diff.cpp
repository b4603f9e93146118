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

WeightStatus from_engine(WeightState w) {
  switch (w) {
    case WeightState::kNone: return WeightStatus::kNone;
    case WeightState::kActive: return WeightStatus::kActive;
    case WeightState::kZeroed: return WeightStatus::kZeroed;
    case WeightState::kErased: return WeightStatus::kErased;
  }
  return WeightStatus::kNone;
}

// "40 ops, 262 KFLOP, 267 KB, 1.19 ms P50"
std::string cost_text(const SideCost& c) {
  std::string out = format_count(c.ops) + " ops";
  if (c.kernels > 0) out += ", " + format_count(c.kernels) + " kernels";
  return out + ", " + format_flops(c.flops) + ", " + format_bytes(c.bytes) + ", " + format_ns(c.time.p50) + " P50";
}

std::string arrow(double a, double b, std::string (*f)(double)) { return f(a) + " \u2192 " + f(b); }

// One reviewer's line per module, compute joined with weights (the wording of `flopscope diff`).
std::string verdict_line(const flopscope::ModuleDiff& m) {
  std::string weights;
  if (m.weights_b.state == WeightState::kErased) weights = "; weights ERASED";
  if (m.weights_b.state == WeightState::kZeroed) weights = "; weights ZEROED";
  switch (m.verdict) {
    case Verdict::kVanished:
      return std::string("VANISHED: ") + (m.b.present ? "no ops in B" : "not in B") + " (A: " + cost_text(m.a) + ")" + weights;
    case Verdict::kNew: return std::string("NEW: ") + (m.a.present ? "no ops in A" : "not in A") + " (B: " + cost_text(m.b) + ")";
    case Verdict::kDormant:
      return "DORMANT: weights ZEROED (" + std::to_string(m.weights_b.params) +
             " params) but compute still runs (wastes per iteration: " + cost_text(m.b) + ")";
    case Verdict::kChanged: {
      std::string out = "CHANGED:";
      if (m.a.ops != m.b.ops) out += " ops " + arrow(m.a.ops, m.b.ops, format_count) + ",";
      if (m.a.flops != m.b.flops) out += " FLOPs " + arrow(m.a.flops, m.b.flops, format_flops) + ",";
      if (m.a.bytes != m.b.bytes) out += " bytes " + arrow(m.a.bytes, m.b.bytes, format_bytes) + ",";
      if (m.time_significant) out += " time P50 " + arrow(m.time_diff.median_a, m.time_diff.median_b, format_ns) + ",";
      if (out.back() == ',') out.pop_back();
      if (m.weights_changed || m.weights_a.state != m.weights_b.state) out += "; weights changed";
      return out;
    }
    case Verdict::kUnchanged: return "";
  }
  return "";
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
  auto engine = std::make_shared<RunDiff>(diff_runs(run_a, a, run_b, b));
  std::unordered_map<std::string, const flopscope::ModuleDiff*> by_path;
  for (const auto& m : engine->modules) by_path.emplace(m.path, &m);
  for (auto& n : d.nodes) {
    auto found = by_path.find(n.path);
    if (found == by_path.end()) continue;  // the engine matched every module path; nothing to say otherwise
    const flopscope::ModuleDiff& m = *found->second;
    n.weights_a = from_engine(m.weights_a.state);
    n.weights_b = from_engine(m.weights_b.state);
    n.verdict = verdict_line(m);
    switch (m.status) {
      case flopscope::DiffStatus::kVanished: n.status = DiffStatus::kVanished; ++d.vanished; break;
      case flopscope::DiffStatus::kNew: n.status = DiffStatus::kNew; ++d.added; break;
      case flopscope::DiffStatus::kChanged: n.status = DiffStatus::kChanged; ++d.changed; break;
      case flopscope::DiffStatus::kUnchanged:
        if (m.verdict == Verdict::kDormant) {  // compute unchanged, weights zeroed: worth a colour
          n.status = DiffStatus::kChanged;
          ++d.changed;
        }
        break;
    }
  }
  d.engine = std::move(engine);
  return d;
}

}  // namespace flopscope::gui
