#include "cli/printers/candidates.h"

#include <fmt/format.h>

#include "cli/printers/units.h"

namespace flopscope::cli {
namespace {

std::string by_set(const Candidate& c) {
  std::string s;
  for (const auto& v : c.by_input_set) {
    if (!s.empty()) s += ", ";
    s += fmt::format("{} {}/{}", v.tag.empty() ? "random" : v.tag, v.held, v.calls);
  }
  return s;
}

std::string thresholds(const CandidateOptions& o) {
  return fmt::format(
      "zero-like: output RMS < {:g}; identity-like: ||y-x||/||x|| < {:g}; listed when it held in >= {} "
      "of calls",
      o.zero_threshold, o.identity_threshold, percent_text(o.min_share_of_calls));
}

// "block.f, block.norm" ("" when no whole module is discarded).
std::string joined(const std::vector<std::string>& paths) {
  std::string s;
  for (const auto& p : paths) s += (s.empty() ? "" : ", ") + p;
  return s;
}

std::string discarded_flops(const DiscardCandidate& c) {
  return flops_text(c.flops) + (c.flops_complete ? "" : " (at least: an op without a FLOPs formula)");
}

std::string render_discarded_table(const CandidateReport& r) {
  std::string out;
  for (const auto& c : r.discarded) {
    out +=
        fmt::format("  {} ({}) computed then multiplied by zero: {} by {} = 0 in {} ({} of {} iterations)\n",
                    c.path.empty() ? "(model)" : c.path, c.type, c.zeroing_op, c.zero_factor,
                    c.zeroing_module.empty() ? "(model)" : c.zeroing_module, c.iterations, c.run_iterations);
    out += fmt::format(
        "    discards per iteration {} ({} of FLOPs), {}, {} ops, {} P50 ({} of time){}\n",
        discarded_flops(c), percent_text(c.share_flops), bytes_text(c.bytes), count_text(c.ops),
        time_text(c.time_p50_ns), percent_text(c.share_time),
        c.discarded_modules.empty() ? "" : "; runs only to be discarded: " + joined(c.discarded_modules));
  }
  return out;
}

}  // namespace

std::string render_candidates_table(const CandidateReport& r) {
  std::string out = "\nelimination candidates\n";
  if (!r.has_activations) {
    return out + "  this run has no activation statistics: profile with --activations to find candidates\n";
  }
  out += "  " + thresholds(r.options) + "\n";
  out += render_discarded_table(r);
  if (r.candidates.empty()) return out + "  no module behaves as zero or identity on these requests\n";
  for (const auto& c : r.candidates) {
    out += fmt::format(
        "  {} ({}) {}: held in {} of {} calls ({}); median output RMS {:.3g}{}\n", c.path, c.type,
        to_string(c.kind), c.held, c.calls, percent_text(c.share_held), c.median_out_rms,
        c.kind == CandidateKind::kIdentityLike ? fmt::format(", median change {:.3g}", c.median_rel_change)
                                               : "");
    out += fmt::format(
        "    costs per iteration {} ({} of FLOPs), {} ({} of bytes), {} P50 ({} of time); weights {}{}\n",
        flops_text(c.flops), percent_text(c.share_flops), bytes_text(c.bytes), percent_text(c.share_bytes),
        time_text(c.time_p50_ns), percent_text(c.share_time), c.weight_status,
        c.weight_status == "none" ? "" : fmt::format(" (max |w| {:.3g})", c.weight_max_abs));
    out +=
        fmt::format("    removing it would save {} FLOPs, {} and about {} per iteration; by input set: {}\n",
                    si_text(c.flops, ""), bytes_text(c.bytes), time_text(c.time_p50_ns), by_set(c));
  }
  return out;
}

std::string render_candidates_markdown(const CandidateReport& r) {
  std::string out = "\n### Elimination candidates\n\n";
  if (!r.has_activations)
    return out + "No activation statistics in this run: profile with `--activations`.\n";
  out += thresholds(r.options) + ".\n\n";
  if (!r.discarded.empty()) {
    out += "Computed then multiplied by zero:\n\n";
    out +=
        "| module | multiplied by | in | iterations | FLOPs | bytes | time P50 | time % | runs only to be "
        "discarded |\n";
    out += "|---|---|---|---:|---:|---:|---:|---:|---|\n";
    for (const auto& c : r.discarded) {
      std::string modules;
      for (const auto& m : c.discarded_modules) modules += (modules.empty() ? "`" : ", `") + m + "`";
      out += fmt::format("| `{}` | `{}` = 0 ({}) | `{}` | {}/{} | {} | {} | {} | {} | {} |\n", c.path,
                         c.zero_factor, c.zeroing_op, c.zeroing_module, c.iterations, c.run_iterations,
                         discarded_flops(c), bytes_text(c.bytes), time_text(c.time_p50_ns),
                         percent_text(c.share_time), modules);
    }
    out += "\n";
  }
  if (r.candidates.empty()) return out + "No module behaves as zero or identity on these requests.\n";
  out += "| module | behaves as | held | FLOPs | bytes | time P50 | time % | weights | by input set |\n";
  out += "|---|---|---:|---:|---:|---:|---:|---|---|\n";
  for (const auto& c : r.candidates) {
    out += fmt::format("| `{}` | {} | {}/{} | {} | {} | {} | {} | {} | {} |\n", c.path, to_string(c.kind),
                       c.held, c.calls, flops_text(c.flops), bytes_text(c.bytes), time_text(c.time_p50_ns),
                       percent_text(c.share_time), c.weight_status, by_set(c));
  }
  return out;
}

nlohmann::ordered_json candidates_json(const CandidateReport& r) {
  nlohmann::ordered_json list = nlohmann::ordered_json::array();
  for (const auto& c : r.candidates) {
    nlohmann::ordered_json sets = nlohmann::ordered_json::array();
    for (const auto& v : c.by_input_set)
      sets.push_back({{"tag", v.tag}, {"calls", v.calls}, {"held", v.held}});
    list.push_back({{"path", c.path},
                    {"type", c.type},
                    {"kind", to_string(c.kind)},
                    {"calls", c.calls},
                    {"held", c.held},
                    {"share_held", c.share_held},
                    {"median_out_rms", c.median_out_rms},
                    {"max_out_rms", c.max_out_rms},
                    {"median_rel_change", c.median_rel_change},
                    {"weight_status", c.weight_status},
                    {"weight_max_abs", c.weight_max_abs},
                    {"flops", c.flops},
                    {"bytes", c.bytes},
                    {"time_p50_ns", c.time_p50_ns},
                    {"share_flops", c.share_flops},
                    {"share_bytes", c.share_bytes},
                    {"share_time", c.share_time},
                    {"by_input_set", std::move(sets)}});
  }
  nlohmann::ordered_json discarded = nlohmann::ordered_json::array();
  for (const auto& c : r.discarded) {
    discarded.push_back({{"path", c.path},
                         {"type", c.type},
                         {"zero_factor", c.zero_factor},
                         {"zeroing_op", c.zeroing_op},
                         {"zeroing_module", c.zeroing_module},
                         {"discarded_modules", c.discarded_modules},
                         {"iterations", c.iterations},
                         {"run_iterations", c.run_iterations},
                         {"ops", c.ops},
                         {"flops", c.flops},
                         {"flops_complete", c.flops_complete},
                         {"bytes", c.bytes},
                         {"time_p50_ns", c.time_p50_ns},
                         {"share_flops", c.share_flops},
                         {"share_time", c.share_time}});
  }
  return {{"has_activations", r.has_activations},
          {"zero_threshold", r.options.zero_threshold},
          {"identity_threshold", r.options.identity_threshold},
          {"min_share_of_calls", r.options.min_share_of_calls},
          {"input_sets", r.input_sets},
          {"modules", std::move(list)},
          {"discarded", std::move(discarded)}};
}

}  // namespace flopscope::cli
