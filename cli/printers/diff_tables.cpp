#include "cli/printers/diff_tables.h"

#include <fmt/format.h>

#include "analyzer/diff/diff_cells.h"
#include "analyzer/work_text.h"

namespace flopscope::cli {
namespace {

std::string side_num(const SideCost& s, double v, std::string (*f)(double)) {
  return s.present ? f(v) : "-";
}
std::string weights_cell(const WeightSide& w) {
  if (w.state == WeightState::kNone) return "-";
  return std::string(to_string(w.state));
}

}  // namespace

TextTable module_table(const RunDiff& d, const DiffReportOptions& o) {
  TextTable t;
  const std::string calls = kOpCallsWord;
  t.header = {"module",  "type",   "status", calls + " A", calls + " B", "FLOPs A",   "FLOPs B", "bytes A",
              "bytes B", "time A", "time B", "time delta", "weights A",  "weights B", "B path"};
  t.right_align = {false, false, false, true, true,  true,  true, true,
                   true,  true,  true,  true, false, false, false};
  for (const ModuleDiff* m : modules_to_show(d, o)) {
    std::string type = m->type_b.empty() || m->type_b == m->type ? m->type : m->type + " -> " + m->type_b;
    t.rows.push_back({m->path.empty() ? "(model)" : m->path, type, to_string(m->verdict),
                      side_num(m->a, m->a.ops, format_count), side_num(m->b, m->b.ops, format_count),
                      side_num(m->a, m->a.flops, flops_text), side_num(m->b, m->b.flops, flops_text),
                      side_num(m->a, m->a.bytes, bytes_text), side_num(m->b, m->b.bytes, bytes_text),
                      side_time_text(m->a), side_time_text(m->b),
                      time_delta_text(m->time_diff, m->time_status, m->a.present && m->b.present),
                      weights_cell(m->weights_a), weights_cell(m->weights_b), m->path_b});
  }
  return t;
}

TextTable op_table(const RunDiff& d, const DiffReportOptions& o, std::size_t* more) {
  TextTable t;
  t.header = {"module",  "op",      "signature", "status", "calls A",   "calls B",
              "FLOPs A", "FLOPs B", "time A",    "time B", "time delta"};
  t.right_align = {false, false, false, false, true, true, true, true, true, true, true};
  std::size_t shown = 0, changed = 0;
  for (const auto& op : d.ops) {
    if (op.status == DiffStatus::kUnchanged && op.time_status != TimeStatus::kSlower &&
        op.time_status != TimeStatus::kFaster)
      continue;
    ++changed;
    if (shown >= o.top_ops) continue;
    ++shown;
    std::string sig = op.signature.size() > 60 ? op.signature.substr(0, 57) + "..." : op.signature;
    t.rows.push_back({op.module_path.empty() ? "(model)" : op.module_path, op.name, sig, to_string(op.status),
                      side_num(op.a, op.a.ops, format_count), side_num(op.b, op.b.ops, format_count),
                      side_flops_text(op.a), side_flops_text(op.b), side_time_text(op.a),
                      side_time_text(op.b),
                      time_delta_text(op.time_diff, op.time_status, op.a.present && op.b.present)});
  }
  *more = changed - shown;
  return t;
}

TextTable gate_table(const std::vector<GateResult>& gates) {
  TextTable t;
  t.header = {"gate", "result", "detail"};
  for (const auto& g : gates) t.rows.push_back({g.name, g.passed ? "PASS" : "FAIL", g.message});
  return t;
}

std::string run_line(const RunInfo& info, const RunTotals& t) {
  std::string src = info.source_path.empty() ? "(unknown source)" : info.source_path;
  std::string out = fmt::format("{}, {}", src, count_of(t.iterations, "iteration"));
  if (t.processes > 1) out += fmt::format(" from {} processes", t.processes);
  if (!info.device.empty()) out += ", " + info.device;
  if (!info.input_spec.empty()) out += ", input " + info.input_spec;
  if (t.params > 0)
    out +=
        fmt::format(", {} ({})", count_of(t.params, "param"), bytes_text(static_cast<double>(t.param_bytes)));
  return out;
}

std::string status_counts(const int counts[4]) {
  std::string out;
  for (int s = 0; s < 4; ++s) {
    if (counts[s] == 0) continue;
    out += fmt::format("{}{} {}", out.empty() ? "" : ", ", counts[s], to_string(static_cast<DiffStatus>(s)));
  }
  return out.empty() ? "none" : out;
}

}  // namespace flopscope::cli
