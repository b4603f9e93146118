#include "analyzer/diff/gates.h"

#include <fmt/format.h>
#include <fnmatch.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>

#include "analyzer/diff/between_runs.h"
#include "analyzer/format.h"
#include "db/model/module_path.h"

namespace flopscope {
namespace {

std::string pct(double f) {
  return fmt::format("{:+.2f}%", f * 100);
}

std::string list(const std::vector<std::string>& names, std::size_t max = 3) {
  std::string out;
  for (std::size_t i = 0; i < names.size() && i < max; ++i) out += (i ? ", " : "") + names[i];
  if (names.size() > max) out += fmt::format(" and {} more", names.size() - max);
  return out;
}

GateResult expect_vanished(const RunDiff& d, const std::string& glob) {
  GateResult g{"expect-vanished " + glob, false, ""};
  std::vector<std::string> vanished, alive;
  std::vector<const ModuleDiff*> matched;
  double ops = 0, flops = 0;
  for (const auto& m : d.modules) {
    if (!m.a.present || !glob_match(glob, m.path)) continue;
    if (m.verdict == Verdict::kUnwrapped) {
      alive.push_back(m.path + " (UNWRAPPED: " +
                      (m.moved_to.empty() ? std::string("the modules below it are in B")
                                          : "its work is in B's " + m.moved_to) +
                      ")");
    } else if (m.status == DiffStatus::kVanished) {
      vanished.push_back(m.path);
      matched.push_back(&m);
    } else {
      // B's module by its own path when the matching paired it under another one.
      alive.push_back(fmt::format("{} ({} op calls/iter in B{})", m.path, count_text(m.b.ops),
                                  m.path_b.empty() ? std::string() : ", as B's " + m.path_b));
    }
  }
  // The cost of the outermost matching modules (a descendant's is inside its ancestor's), whether or not
  // their own parent vanished too.
  for (const ModuleDiff* m : matched) {
    bool inside = std::any_of(matched.begin(), matched.end(), [&](const ModuleDiff* o) {
      return o != m && (o->path.empty() || (m->path.size() > o->path.size() && m->path.starts_with(o->path) &&
                                            m->path[o->path.size()] == '.'));
    });
    if (inside) continue;
    ops += m->a.ops;
    flops += m->a.flops;
  }
  if (vanished.empty() && alive.empty()) {
    g.message = "no module of A matches '" + glob + "'";
  } else if (!alive.empty()) {
    g.message = fmt::format("{} of {} matching modules still run in B: {}", alive.size(),
                            alive.size() + vanished.size(), list(alive));
  } else {
    g.passed = true;
    g.message = fmt::format("{} matching modules vanished ({} op calls, {} per iteration in A)",
                            vanished.size(), count_text(ops), flops_text(flops));
  }
  return g;
}

GateResult forbid_active(const RunDiff& d, const std::string& glob) {
  GateResult g{"forbid-active " + glob, false, ""};
  std::vector<std::string> found;
  for (const auto& m : d.modules) {
    // B's module by B's own path; the glob may name it by that or by A's path it was paired with.
    const std::string& own = m.path_b.empty() ? m.path : m.path_b;
    if (!m.b.present || !(glob_match(glob, m.path) || glob_match(glob, own))) continue;
    if (m.b.ops > 0 || m.b.kernels > 0)
      found.push_back(fmt::format("{} runs {} op calls/iter", own, count_text(m.b.ops)));
  }
  for (const auto& p : d.params) {
    if (p.state_b != WeightState::kActive) continue;
    const std::string owner(path_parent(p.name));
    if (glob_match(glob, p.name) || glob_match(glob, owner))
      found.push_back(p.name + " has non-zero weights");
  }
  g.passed = found.empty();
  g.message = g.passed ? "nothing matching '" + glob + "' is active in B"
                       : fmt::format("{} active in B: {}", found.size(), list(found));
  return g;
}

// Gate messages are read by people (terminal, JUnit, the GUI): values through the one unit formatter.
void limit(std::vector<GateResult>& out, const char* what, std::optional<double> max, double a, double b,
           std::string (*value_text)(double)) {
  if (!max) return;
  GateResult g{std::string("max-regression ") + what, true, ""};
  double rel = a > 0 ? (b - a) / a : (b > 0 ? INFINITY : 0);
  g.passed = rel <= *max;
  g.message = fmt::format("{}: {} -> {} ({}; limit +{:.2f}%)", what, value_text(a), value_text(b),
                          std::isinf(rel) ? "from 0" : pct(rel), *max * 100);
  out.push_back(std::move(g));
}

// The comparison an output gate needs, or why it cannot be evaluated (the gate's error, exit 2), or why it
// fails whatever the threshold (NaN/Inf in an output). Returns false when `g` is decided.
bool outputs_usable(const RunDiff& d, GateResult& g) {
  const OutputComparison& c = d.outputs;
  if (c.status != OutputsStatus::kCompared) {
    g.passed = false;
    g.error = true;
    g.message = c.reason.empty()
                    ? "neither A nor B has outputs (runs profiled by `diff A.pt B.pt`, or stored "
                      "with `profile --save-outputs` / `trace --save-outputs`): outputs not compared"
                    : c.reason;
    return false;
  }
  if (c.non_finite) {
    g.passed = false;
    g.message = output_line(c).substr(std::string("outputs: ").size());
    return false;
  }
  return true;
}

GateResult max_output_change(const RunDiff& d, double limit) {
  GateResult g{fmt::format("max-output-change {:g}", limit), false, ""};
  if (!outputs_usable(d, g)) return g;
  const OutputComparison& c = d.outputs;
  if (!c.max_rel_change) {
    g.error = true;
    g.message =
        "the outputs differ but a side kept only their statistics (over the value budget): the "
        "relative change is unknown";
    return g;
  }
  std::string worst;
  for (const auto& t : c.tensors)
    if (t.max_rel_change && *t.max_rel_change == *c.max_rel_change) worst = t.name;
  g.passed = *c.max_rel_change <= limit;
  g.message = c.exact ? "outputs equal to the last bit"
                      : fmt::format("max relative change {:.3g} (output {}), limit {:g}", *c.max_rel_change,
                                    worst, limit);
  return g;
}

GateResult min_top1_agreement(const RunDiff& d, double limit) {
  GateResult g{fmt::format("min-top1-agreement {:g}%", limit * 100), false, ""};
  if (!outputs_usable(d, g)) return g;
  const OutputComparison& c = d.outputs;
  if (c.top1_total == 0) {
    g.error = true;
    g.message = "no floating-point output with a last dimension: no top-1 to compare";
    return g;
  }
  const double agree = static_cast<double>(c.top1_agree) / static_cast<double>(c.top1_total);
  g.passed = agree >= limit;
  g.message = fmt::format("top-1 agreement {}/{} ({:.4g}%), limit {:g}%", c.top1_agree, c.top1_total,
                          agree * 100, limit * 100);
  return g;
}

}  // namespace

StatusOr<double> parse_fraction(const std::string& text, const std::string& option) {
  std::string value = text;
  const bool percent = !value.empty() && value.back() == '%';
  if (percent) value.pop_back();
  char* end = nullptr;
  double v = std::strtod(value.c_str(), &end);
  if (value.empty() || end != value.c_str() + value.size() || !std::isfinite(v) || v < 0)
    return InvalidArgument(option + " '" + text +
                           "': expected a non-negative number or percentage (1e-5, 99.9%)");
  return percent ? v / 100 : v;
}

std::string ambiguity_text(const AmbiguousGroup& g) {
  auto maps = [](const std::vector<std::string>& v) {
    std::string out;
    for (const auto& m : v) out += (out.empty() ? "" : " ") + m;
    return out;
  };
  std::string out = fmt::format(
      "the evidence cannot tell \"{}\" from \"{}\" (scores {:.2f} apart, under the margin {:.1f})", g.chosen,
      g.alternative, g.margin, kAmbiguityMargin);
  if (!g.settle_chosen.empty()) out += "; declare the first with " + maps(g.settle_chosen);
  if (!g.settle.empty())
    out += (g.settle_chosen.empty() ? "; declare the second with " : ", the second with ") + maps(g.settle);
  return out;
}

bool glob_match(const std::string& pattern, const std::string& text) {
  return ::fnmatch(pattern.c_str(), text.c_str(), 0) == 0;
}

StatusOr<RegressionLimits> parse_regression_limits(const std::string& spec) {
  RegressionLimits l;
  std::size_t pos = 0;
  bool any = false;
  while (pos <= spec.size()) {
    std::size_t comma = spec.find(',', pos);
    std::string item = spec.substr(pos, comma == std::string::npos ? std::string::npos : comma - pos);
    pos = comma == std::string::npos ? spec.size() + 1 : comma + 1;
    if (item.empty()) continue;
    auto eq = item.find('=');
    auto bad = [&] {
      return InvalidArgument("--max-regression '" + spec +
                             "': expected KEY=PERCENT[,...] with KEY one of "
                             "time, flops, bytes, ops, kernels (e.g. time=5%,flops=0.5%)");
    };
    if (eq == std::string::npos) return bad();
    std::string key = item.substr(0, eq), value = item.substr(eq + 1);
    bool percent = !value.empty() && value.back() == '%';
    if (percent) value.pop_back();
    char* end = nullptr;
    double v = std::strtod(value.c_str(), &end);
    if (value.empty() || end != value.c_str() + value.size() || !std::isfinite(v) || v < 0) return bad();
    if (percent) v /= 100;
    if (key == "time")
      l.time = v;
    else if (key == "flops")
      l.flops = v;
    else if (key == "bytes")
      l.bytes = v;
    else if (key == "ops")
      l.ops = v;
    else if (key == "kernels")
      l.kernels = v;
    else
      return bad();
    any = true;
  }
  if (!any) return InvalidArgument("--max-regression is empty");
  return l;
}

std::vector<GateResult> evaluate_gates(const RunDiff& d, const GateOptions& o) {
  std::vector<GateResult> out;
  // A module gate is only as good as the attribution and the correspondence of the modules it matches.
  auto checked = [&](GateResult g, const std::string& glob) {
    for (const auto& m : d.modules) {
      if (m.verdict != Verdict::kAmbiguous || m.ambiguous_group < 0) continue;
      const std::string& own_b = m.path_b.empty() ? m.path : m.path_b;
      if (!glob_match(glob, m.path) && !(m.b.present && glob_match(glob, own_b))) continue;
      g.passed = false;
      g.error = true;
      g.message = "'" + glob + "' matches " + m.path + ", which is AMBIGUOUS: " +
                  ambiguity_text(d.ambiguous_groups[static_cast<std::size_t>(m.ambiguous_group)]);
      return g;
    }
    for (const auto& p : d.ambiguous) {
      if (!glob_match(glob, p)) continue;
      g.passed = false;
      g.error = true;
      g.message = "'" + glob + "' matches " + p +
                  ", whose ops could not be attributed exactly (ambiguous module names); profile with "
                  "--attribution instances";
      break;
    }
    return g;
  };
  for (const auto& g : o.expect_vanished) out.push_back(checked(expect_vanished(d, g), g));
  for (const auto& g : o.forbid_active) out.push_back(checked(forbid_active(d, g), g));
  if (o.max_regression) {
    const RegressionLimits& l = *o.max_regression;
    if (l.time) {
      GateResult g{"max-regression time", true, ""};
      // Time between runs is assessable only over several processes per side: without them the gate has
      // no evidence either way, so it neither passes nor fails (an error, exit 2).
      const MedianDifference& md = d.time_diff;
      const bool tested = d.time_status != TimeStatus::kUntested && !std::isnan(md.ci_low);
      // Shown: the runs' P50s. The limit applies to the interval of the per-process estimate, relative to
      // A's mean per-process median.
      double a = d.a.time.p50, b = d.b.time.p50;
      double rel = a > 0 ? (b - a) / a : 0;
      double rel_low = md.median_a > 0 && tested ? md.ci_low / md.median_a : 0;
      auto signed_time = [](double ns) { return (ns > 0 ? "+" : "") + time_text(ns); };
      if (d.time_status == TimeStatus::kNotAssessable) {
        g.passed = false;
        g.error = true;
        g.message = fmt::format(
            "the end-to-end time change is not assessable across processes (A: {} process{}, B: {}; needs {} "
            "per side): profile models with `diff A.pt B.pt --rounds N` or record programs with "
            "`flopscope trace --repeat N`, or leave time out of --max-regression",
            d.a.processes, d.a.processes == 1 ? "" : "es", d.b.processes, kMinProcessesForStats);
      } else {
        // Fails only when the lower bound of the regression's 95% interval (Welch's over per-process
        // medians, compare_time) exceeds the limit: noise whose interval merely reaches past it never fails.
        g.passed = !(tested && md.significant && rel_low > *l.time);
        g.message =
            fmt::format("{} time P50: {} -> {} ({}{}; limit +{:.2f}% on the interval's lower bound)",
                        d.gpu_time ? "device" : "host", time_text(a), time_text(b), pct(rel),
                        tested ? fmt::format(", 95% CI of the difference [{}, {}], lower bound {}",
                                             signed_time(md.ci_low), signed_time(md.ci_high), pct(rel_low))
                               : ", fewer than 3 iterations: not tested",
                        *l.time * 100);
      }
      out.push_back(std::move(g));
    }
    limit(out, "flops", l.flops, d.a.flops, d.b.flops, flops_text);
    limit(out, "bytes", l.bytes, d.a.bytes, d.b.bytes, bytes_text);
    limit(out, "ops", l.ops, d.a.ops, d.b.ops, count_text);
    limit(out, "kernels", l.kernels, d.a.kernels, d.b.kernels, count_text);
  }
  if (o.max_output_change) out.push_back(max_output_change(d, *o.max_output_change));
  if (o.min_top1_agreement) out.push_back(min_top1_agreement(d, *o.min_top1_agreement));
  return out;
}

}  // namespace flopscope
