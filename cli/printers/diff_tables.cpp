#include "cli/printers/diff_tables.h"

#include <fmt/format.h>

#include <cmath>

#include "analyzer/analysis/report_view.h"
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
  t.header = {"module",  "op",      "category", "signature", "status", "calls A",
              "calls B", "FLOPs A", "FLOPs B",  "time A",    "time B", "time delta"};
  t.right_align = {false, false, false, false, false, true, true, true, true, true, true, true};
  std::size_t shown = 0, ranked = 0;
  // d.ops is ranked by the engine: |time delta| first, orphan-kernel and zero-cost rows after the rest.
  for (const auto& op : d.ops) {
    if (!listed_op(op)) continue;
    ++ranked;
    if (shown >= o.top_ops) continue;
    ++shown;
    std::string sig = op.signature.size() > 60 ? op.signature.substr(0, 57) + "..." : op.signature;
    t.rows.push_back({op.module_path.empty() ? "(model)" : op.module_path, op.name, to_string(op.category),
                      sig, to_string(op.status), side_num(op.a, op.a.ops, format_count),
                      side_num(op.b, op.b.ops, format_count), side_flops_text(op.a), side_flops_text(op.b),
                      side_time_text(op.a), side_time_text(op.b),
                      time_delta_text(op.time_diff, op.time_status, op.a.present && op.b.present)});
  }
  *more = ranked - shown;
  return t;
}

std::string op_ranking_text(const RunDiff& d) {
  return fmt::format("ranked by |time delta| of P50 {} time per iteration", d.gpu_time ? "device" : "host");
}

std::string orphan_kernels_text(const RunDiff& d) {
  const CategorySummary& c = d.categories;
  if (c.orphan_signatures_a == 0 && c.orphan_signatures_b == 0) return "";
  return fmt::format("kernels no known op launched (not ranked): A {} ({}), B {} ({})",
                     count_of(c.orphan_signatures_a, "kernel name"), time_text(c.orphan_time_a),
                     count_of(c.orphan_signatures_b, "kernel name"), time_text(c.orphan_time_b));
}

std::string category_heading(const RunDiff& d) {
  if (!d.categories.timed)
    return "FLOPs per iteration by op category (no time: host times of nested ops overlap, so they do not "
           "add "
           "up by category)";
  return fmt::format(
      "Op categories: device time per iteration (mean) and FLOPs; share {} of each side (A {}, "
      "B {})",
      to_string(ShareOf::kDeviceTimePerIteration), time_text(d.categories.time_a),
      time_text(d.categories.time_b));
}

TextTable category_table(const RunDiff& d) {
  TextTable t;
  const bool timed = d.categories.timed;
  t.header = {"category", "signatures A", "signatures B", "FLOPs A", "FLOPs B"};
  if (timed) {
    for (const char* h : {"time A", "time B", "time delta", "dev% A", "dev% B"}) t.header.emplace_back(h);
  }
  t.right_align.assign(t.header.size(), true);
  t.right_align[0] = false;
  for (const CategoryDiff& r : d.categories.rows) {
    if (r.signatures_a == 0 && r.signatures_b == 0) continue;
    std::vector<std::string> row = {to_string(r.category), format_count(r.signatures_a),
                                    format_count(r.signatures_b), flops_text(r.flops_a),
                                    flops_text(r.flops_b)};
    if (timed) {
      const double delta = r.time_b - r.time_a;
      row.insert(row.end(), {time_text(r.time_a), time_text(r.time_b),
                             (delta >= 0 ? "+" : "-") + time_text(std::fabs(delta)), percent_text(r.share_a),
                             percent_text(r.share_b)});
    }
    t.rows.push_back(std::move(row));
  }
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
