// The versioned JSON form of the diff (schema documented in docs/diff-json.md), streamed: a diff of two
// large runs has ~100k rows. Members are written in the order a std::map-backed nlohmann::json object
// printed them before (sorted keys), so the text is unchanged.
#include <algorithm>
#include <cmath>
#include <future>
#include <utility>

#include "cli/printers/diff_report.h"
#include "cli/printers/json_writer.h"

namespace flopscope::cli {
namespace {

void side(JsonWriter& w, const SideCost& s) {
  if (!s.present) return w.null();
  w.begin_object();
  w.member("bytes", s.bytes);
  w.member("flops", s.flops);
  w.member("flops_known", s.flops_known);
  w.member("kernels", s.kernels);
  w.member("nested_flops", s.nested_flops);
  w.member("ops", s.ops);
  w.member("share_flops", s.share_flops);
  w.member("share_time", s.share_time);
  w.member("time_mean_ns", s.time.mean);
  w.member("time_p50_ns", s.time.p50);
  w.member("time_samples", s.time.samples);
  w.end_object();
}

// A row's costs in A and in B: members "a" and "b" (null where absent).
void sides(JsonWriter& w, const SideCost& a, const SideCost& b) {
  w.key("a");
  side(w, a);
  w.key("b");
  side(w, b);
}

// A row's time change: members "time_delta" (the interval) and "time_status".
void time_change(JsonWriter& w, const MedianDifference& t, bool significant, TimeStatus status) {
  w.key("time_delta");
  w.begin_object();
  w.member("ci_high_ns", t.ci_high);
  w.member("ci_low_ns", t.ci_low);
  w.member("diff_ns", t.diff);
  w.member("significant", significant);
  w.end_object();
  w.member("time_status", to_string(status));
}

// A module's or op signature's row: a row on one side only measured no change (every view leaves the cell
// blank): "time_delta" is null; the side's own time is what left or appeared.
void row_time_change(JsonWriter& w, const SideCost& a, const SideCost& b, const MedianDifference& t,
                     bool significant, TimeStatus status) {
  if (a.present && b.present) return time_change(w, t, significant, status);
  w.key("time_delta");
  w.null();
  w.member("time_status", to_string(status));
}

void weights(JsonWriter& w, const WeightSide& s) {
  w.begin_object();
  w.member("bytes", s.bytes);
  w.member("erased", s.erased);
  w.member("moved", s.moved);
  w.member("numel", s.numel);
  w.member("params", s.params);
  w.member("state", to_string(s.state));
  w.member("zeroed", s.zeroed);
  w.end_object();
}

void run(JsonWriter& w, const RunInfo& i, const RunTotals& t) {
  w.begin_object();
  w.member("bytes", t.bytes);
  w.member("device", i.device);
  w.member("flops", t.flops);
  w.member("input_spec", i.input_spec);
  w.member("iterations", t.iterations);
  w.member("kernels", t.kernels);
  w.member("ops", t.ops);
  w.member("param_bytes", t.param_bytes);
  w.member("params", t.params);
  w.member("processes", t.processes);
  w.member("source_path", i.source_path);
  w.member("source_sha256", i.source_sha256);
  w.member("time_p50_ns", t.time.p50);
  w.end_object();
}

// "a", "b", "delta", "relative"; the end-to-end time also carries its interval (`t`).
void metric(JsonWriter& w, double a, double b, const MedianDifference* t = nullptr,
            bool significant = false) {
  w.begin_object();
  w.member("a", a);
  w.member("b", b);
  if (t) {
    w.member("ci_high_ns", t->ci_high);
    w.member("ci_low_ns", t->ci_low);
  }
  w.member("delta", b - a);
  if (t) w.member("diff_ns", t->diff);
  w.key("relative");
  if (a != 0) {
    w.value((b - a) / a);
  } else {
    w.null();
  }
  if (t) w.member("significant", significant);
  w.end_object();
}

// A counts object keyed by status names, in the sorted order of a JSON object's keys.
template <typename Status>
void counts(JsonWriter& w, const int* c, int n) {
  std::vector<std::pair<std::string_view, int>> rows;
  for (int s = 0; s < n; ++s) rows.emplace_back(to_string(static_cast<Status>(s)), c[s]);
  std::sort(rows.begin(), rows.end());
  w.begin_object();
  for (const auto& [name, count] : rows) w.member(name, count);
  w.end_object();
}

void end_to_end(JsonWriter& w, const RunDiff& d) {
  w.begin_object();
  w.key("bytes");
  metric(w, d.a.bytes, d.b.bytes);
  const bool measured =
      d.a.measured() || d.b.measured();  // hardware counters: only when a kernel was measured
  if (measured) {
    w.key("dram_bytes");
    metric(w, d.a.dram_bytes, d.b.dram_bytes);
  }
  w.key("flops");
  metric(w, d.a.flops, d.b.flops);
  w.key("kernels");
  metric(w, d.a.kernels, d.b.kernels);
  if (measured) {
    w.key("measured_flops");
    metric(w, d.a.measured_flops, d.b.measured_flops);
  }
  w.key("ops");
  metric(w, d.a.ops, d.b.ops);
  w.key("time_p50_ns");
  metric(w, d.a.time.p50, d.b.time.p50, &d.time_diff, d.time_significant);
  w.member("time_status", to_string(d.time_status));
  w.end_object();
}

// How a module was paired with B's: the score, its evidence and the margin to the runner-up.
void match(JsonWriter& w, const ModuleMatch& m) {
  w.begin_object();
  w.member("a_path", m.a_path);
  w.member("b_path", m.b_path);
  w.key("evidence");
  w.begin_object();
  w.member("compute", m.evidence.compute);
  w.member("name", m.evidence.name);
  w.member("order", m.evidence.order);
  w.member("pinned", m.evidence.pinned);
  w.member("structure", m.evidence.structure);
  w.member("type", m.evidence.type);
  w.member("weights", m.evidence.weights);
  w.end_object();
  w.key("margin");
  if (std::isfinite(m.margin)) {
    w.value(m.margin);
  } else {
    w.null();
  }
  w.member("runner_up", m.runner_up);
  w.member("score", m.score);
  w.end_object();
}

void module(JsonWriter& w, const ModuleDiff& m) {
  w.begin_object();
  w.key("a");
  side(w, m.a);
  w.member("ambiguous_group", m.ambiguous_group);
  w.key("b");
  side(w, m.b);
  w.member("depth", m.depth);
  w.member("discarded_by", m.discarded_by);
  w.member("headline", m.headline);
  w.key("match");
  if (m.match) {
    match(w, *m.match);
  } else {
    w.null();
  }
  w.member("moved_to", m.moved_to);
  w.member("path", m.path);
  w.member("path_b", m.path_b);
  w.member("status", to_string(m.verdict));
  w.member("structural_status", to_string(m.status));
  row_time_change(w, m.a, m.b, m.time_diff, m.time_significant, m.time_status);
  w.member("type", m.type);
  w.member("type_b", m.type_b);
  w.member("verdict", to_string(m.verdict));
  w.member("verdict_text", m.verdict_text);
  w.key("weights_a");
  weights(w, m.weights_a);
  w.key("weights_b");
  weights(w, m.weights_b);
  w.member("weights_changed", m.weights_changed);
  w.end_object();
}

void op(JsonWriter& w, const OpDiff& o) {
  w.begin_object();
  sides(w, o.a, o.b);
  w.member("category", to_string(o.category));
  w.member("module_path", o.module_path);
  w.member("name", o.name);
  w.member("orphan_kernels", o.orphan_kernels);
  w.member("ranked", ranked_op(o));
  w.member("signature", o.signature);
  w.member("status", to_string(o.status));
  row_time_change(w, o.a, o.b, o.time_diff, o.time_significant, o.time_status);
  w.end_object();
}

// The category table: per category A and B, and the denominators of the shares.
void categories(JsonWriter& w, const CategorySummary& c) {
  w.begin_object();
  w.key("orphan_kernels");
  w.begin_object();
  w.member("signatures_a", c.orphan_signatures_a);
  w.member("signatures_b", c.orphan_signatures_b);
  w.member("time_a_ns", c.orphan_time_a);
  w.member("time_b_ns", c.orphan_time_b);
  w.end_object();
  w.key("rows");
  w.begin_array();
  for (const CategoryDiff& r : c.rows) {
    w.begin_object();
    w.member("category", to_string(r.category));
    w.member("flops_a", r.flops_a);
    w.member("flops_b", r.flops_b);
    w.member("share_a", r.share_a);
    w.member("share_b", r.share_b);
    w.member("signatures_a", r.signatures_a);
    w.member("signatures_b", r.signatures_b);
    w.member("time_a_ns", r.time_a);
    w.member("time_b_ns", r.time_b);
    w.end_object();
  }
  w.end_array();
  w.member("share_of", "device time per iteration (mean)");
  w.member("time_a_ns", c.time_a);
  w.member("time_b_ns", c.time_b);
  w.member("timed", c.timed);
  w.end_object();
}

void param(JsonWriter& w, const ParamDiff& p) {
  w.begin_object();
  w.member("bytes_a", p.bytes_a);
  w.member("bytes_b", p.bytes_b);
  w.member("changed", p.changed);
  w.member("moved_from", p.moved_from);
  w.member("moved_to", p.moved_to);
  w.member("name", p.name);
  w.member("relation", to_string(p.relation));
  w.member("similarity", p.similarity);
  w.member("state_a", to_string(p.state_a));
  w.member("state_b", to_string(p.state_b));
  w.end_object();
}

void ambiguous(JsonWriter& w, const AmbiguousGroup& g) {
  w.begin_object();
  w.member("a_paths", g.a_paths);
  w.member("alternative", g.alternative);
  w.member("b_paths", g.b_paths);
  w.member("chosen", g.chosen);
  w.member("margin", g.margin);
  w.member("settle", g.settle);
  w.member("settle_chosen", g.settle_chosen);
  w.end_object();
}

void optional_number(JsonWriter& w, std::string_view k, const std::optional<double>& v) {
  w.key(k);
  if (v)
    w.value(*v);
  else
    w.null();
}

void shape(JsonWriter& w, std::string_view k, const std::vector<std::int64_t>& dims) {
  w.key(k);
  w.begin_array();
  for (auto n : dims) w.value(n);
  w.end_array();
}

// What forward() returned in A and B (docs/diff-json.md, OUTPUTS).
void outputs(JsonWriter& w, const OutputComparison& c) {
  w.begin_object();
  w.member("calls_compared", c.calls_compared);
  w.member("calls_left_out", c.calls_left_out);
  w.member("exact", c.exact);
  w.member("line", output_line(c));
  optional_number(w, "max_rel_change", c.max_rel_change);
  w.member("non_finite", c.non_finite);
  w.member("reason", c.reason);
  w.member("status", to_string(c.status));
  w.key("tensors");
  w.begin_array();
  for (const auto& t : c.tensors) {
    w.begin_object();
    w.member("comparable", t.comparable);
    optional_number(w, "cosine", t.cosine);
    w.member("dtype_a", t.dtype_a);
    w.member("dtype_b", t.dtype_b);
    w.member("exact", t.exact);
    w.member("from_summary", t.from_summary);
    w.member("inf_a", t.inf_a);
    w.member("inf_b", t.inf_b);
    optional_number(w, "max_abs_delta", t.max_abs_delta);
    optional_number(w, "max_rel_change", t.max_rel_change);
    w.member("mismatched", t.mismatched);
    w.member("name", t.name);
    w.member("nan_a", t.nan_a);
    w.member("nan_b", t.nan_b);
    w.member("problem", t.problem);
    optional_number(w, "rms_delta", t.rms_delta);
    shape(w, "shape_a", t.shape_a);
    shape(w, "shape_b", t.shape_b);
    w.member("top1_agree", t.top1_agree);
    w.member("top1_total", t.top1_total);
    w.end_object();
  }
  w.end_array();
  w.member("top1_agree", c.top1_agree);
  w.member("top1_total", c.top1_total);
  w.end_object();
}

void summary(JsonWriter& w, const RunDiff& d) {
  w.begin_object();
  w.member("common_modules", d.common_modules);
  w.key("modules");
  counts<Verdict>(w, d.modules_by_verdict, kVerdictCount);
  w.key("modules_time");
  w.begin_object();
  w.member("faster", d.modules_faster);
  w.member("slower", d.modules_slower);
  w.end_object();
  w.key("ops");
  counts<DiffStatus>(w, d.ops_by_status, 4);
  w.member("sentence", d.sentence.text());
  w.end_object();
}

}  // namespace

Status write_diff_json(const RunDiff& d, const std::vector<GateResult>& gates, const DiffReportOptions&,
                       const TextSink& sink) {
  constexpr std::size_t kPiece = std::size_t{1} << 20;
  // The op rows, most of the text, are rendered by a second thread meanwhile, in pieces of about kPiece.
  auto op_pieces = std::async(std::launch::async, [&d] {
    std::vector<std::string> pieces;
    for (std::size_t i = 0; i < d.ops.size();) {
      std::string& piece = pieces.emplace_back();
      piece.reserve(kPiece + (std::size_t{1} << 16));
      JsonWriter rows(piece, 2, i == 0);  // inside the report's object and its "ops" array
      while (i < d.ops.size() && piece.size() < kPiece) op(rows, d.ops[i++]);
    }
    return pieces;
  });
  std::string out;
  out.reserve(kPiece + (std::size_t{1} << 16));
  JsonWriter w(out);
  // After each row: hand over a full piece.
  auto flush = [&](std::size_t at_least) -> Status {
    if (out.size() < at_least) return {};
    Status st = sink(out);
    out.clear();
    return st;
  };
  w.begin_object();
  w.key("a");
  run(w, d.info_a, d.a);
  w.key("ambiguous");
  w.begin_array();
  for (const auto& g : d.ambiguous_groups) ambiguous(w, g);
  w.end_array();
  w.key("b");
  run(w, d.info_b, d.b);
  w.key("categories");
  categories(w, d.categories);
  w.key("end_to_end");
  end_to_end(w, d);
  bool passed = true;
  w.key("gates");
  w.begin_array();
  for (const auto& r : gates) {
    w.begin_object();
    w.member("error", r.error);
    w.member("message", r.message);
    w.member("name", r.name);
    w.member("passed", r.passed);
    w.end_object();
    passed = passed && r.passed;
  }
  w.end_array();
  w.member("maps", d.maps);
  w.key("modules");
  w.begin_array();
  for (const auto& m : d.modules) {
    module(w, m);
    FS_RETURN_IF_ERROR(flush(kPiece));
  }
  w.end_array();
  w.key("ops");
  w.begin_array();
  std::vector<std::string> pieces = op_pieces.get();
  if (!pieces.empty()) {
    FS_RETURN_IF_ERROR(flush(1));
    for (std::string& piece : pieces) FS_RETURN_IF_ERROR(sink(piece));
    w.elements_added();
  }
  w.end_array();
  w.key("outputs");
  outputs(w, d.outputs);
  w.key("params");
  w.begin_array();
  for (const auto& p : d.params) {
    param(w, p);
    FS_RETURN_IF_ERROR(flush(kPiece));
  }
  w.end_array();
  w.member("passed", passed);
  w.member("schema", "flopscope.diff");
  w.key("summary");
  summary(w, d);
  w.member("time_basis", d.gpu_time ? "gpu" : "host");
  w.member("version", kDiffJsonVersion);
  w.member("warnings", d.warnings);
  w.end_object();
  out += '\n';
  return flush(1);
}

std::string render_diff_json(const RunDiff& d, const std::vector<GateResult>& gates,
                             const DiffReportOptions& o) {
  std::string all;
  // About 1.2 kB per module row and 0.9 kB per op row: one allocation for the whole text.
  all.reserve(4096 + 1300 * d.modules.size() + 1000 * d.ops.size() + 200 * d.params.size());
  // A string sink cannot fail.
  (void)write_diff_json(d, gates, o, [&](std::string& piece) -> Status {
    all += piece;
    return {};
  });
  return all;
}

}  // namespace flopscope::cli
