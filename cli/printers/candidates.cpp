#include "cli/printers/candidates.h"

#include <fmt/format.h>

#include "analyzer/activations/candidate_text.h"
#include "cli/printers/units.h"
#include "db/model/text_escape.h"

namespace flopscope::cli {
namespace {

std::string terminal_tag(const std::string& tag) {
  return terminal_safe(tag, false);
}
std::string markdown_tag(const std::string& tag) {
  return markdown_code(tag, true);
}
std::string terminal_safe_line(const std::string& s) {
  return terminal_safe(s, false);
}
std::string markdown_text(const std::string& s) {
  return markdown_code(s, false);
}
std::string markdown_escape_text(const std::string& s) {
  return markdown_escape(s);
}

// "pos (Embedding) runs no op, but aten::slice in (model) takes a float32[8,16] tensor like its parameter
// pos.weight: it may be read directly, so the module is not listed as never-run"
std::string held_back_text(const HeldBackModule& h, std::string (*escape)(const std::string&)) {
  return fmt::format(
      "{} ({}) runs no op, but {} in {} takes a {} tensor like its parameter {}: it may be read directly, so "
      "the "
      "module is not listed as never-run",
      escape(h.path), escape(h.type), escape(h.read.op),
      h.read.module.empty() ? "(model)" : escape(h.read.module), escape(h.read.tensor), escape(h.read.param));
}

// Said after "no module behaves as zero or identity" only when no module with parameters sat idle.
std::string all_run(const CandidateReport& r) {
  return r.held_back.empty() ? ", and every module with parameters runs" : "";
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
  for (const auto& p : paths) s += (s.empty() ? "" : ", ") + terminal_safe(p, false);
  return s;
}

std::string module_name(const std::string& path) {
  return path.empty() ? "(model)" : terminal_safe(path, false);
}

std::string markdown_module(const std::string& path) {
  return path.empty() ? "(model)" : markdown_code(path, true);
}

std::string discarded_flops(const DiscardCandidate& c) {
  return flops_text(c.flops) + (c.flops_complete ? "" : " (at least: an op without a FLOPs formula)");
}

std::string render_discarded_table(const CandidateReport& r) {
  std::string out;
  for (const auto& c : r.discarded) {
    out += fmt::format(
        "  {} ({}) computed then multiplied by zero: {} by {} = 0 in {} ({} of {} iterations)\n",
        module_name(c.path), terminal_safe(c.type, false), terminal_safe(c.zeroing_op, false),
        terminal_safe(c.zero_factor, false), module_name(c.zeroing_module), c.iterations, c.run_iterations);
    out += fmt::format(
        "    discards per iteration {} ({} of FLOPs), {}, {} ops, {} P50 ({} of time){}\n",
        discarded_flops(c), percent_text(c.share_flops), bytes_text(c.bytes), count_text(c.ops),
        time_text(c.time_p50_ns), percent_text(c.share_time),
        c.discarded_modules.empty() ? "" : "; runs only to be discarded: " + joined(c.discarded_modules));
  }
  return out;
}

// "  outputs checked by ablation on MODEL (int64[1,64]@0:512): ..." once above the candidates.
std::string verify_header(const CandidateVerifications& v, std::string (*escape)(const std::string&)) {
  int verified = 0, refuted = 0;
  for (const auto& i : v.items) {
    verified += i.status == VerifyStatus::kVerified;
    refuted += i.status == VerifyStatus::kRefuted;
  }
  return fmt::format(
      "outputs checked by ablating each candidate of {} on {} (tolerance {:g} relative): {} verified, "
      "{} refuted, {} not verified",
      escape(v.model_path), escape(v.inputs), v.tolerance, verified, refuted,
      v.items.size() - static_cast<std::size_t>(verified + refuted));
}

std::string verification_text(const CandidateVerifications* v, const Candidate& c,
                              std::string (*escape)(const std::string&)) {
  const CandidateVerification* found = v ? v->find(c.path) : nullptr;
  return found ? escape(found->text) : "";
}

}  // namespace

std::string render_candidates_table(const CandidateReport& r, const CandidateVerifications* verified) {
  std::string out = "\nelimination candidates\n";
  if (verified) out += "  " + verify_header(*verified, terminal_safe_line) + "\n";
  if (r.has_activations) {
    out += "  " + thresholds(r.options) + "\n";
    out += render_discarded_table(r);
  }
  for (const auto& c : r.candidates) {
    const std::string path = terminal_safe(c.path, false), type = terminal_safe(c.type, false);
    if (c.kind == CandidateKind::kNeverRun) {
      out += fmt::format("  {} ({}) never-run: {}: {}; weights {} (max |w| {:.3g})\n", path, type,
                         never_runs_text(c, terminal_tag), candidate_weights_text(c), c.weight_status,
                         c.weight_max_abs);
      out += "    " + saving_text(c, terminal_tag) + "\n";
      if (verified) out += "    " + verification_text(verified, c, terminal_safe_line) + "\n";
      continue;
    }
    out += fmt::format("  {} ({}) {}: held in {} of {} calls ({}); median output RMS {:.3g}{}\n", path, type,
                       to_string(c.kind), c.held, c.calls, percent_text(c.share_held), c.median_out_rms,
                       c.kind == CandidateKind::kIdentityLike
                           ? fmt::format(", median change {:.3g}", c.median_rel_change)
                           : "");
    out += fmt::format(
        "    costs per iteration {} ({} of FLOPs), {} ({} of bytes), {} P50 ({} of time); weights {}{}\n",
        flops_text(c.flops), percent_text(c.share_flops), bytes_text(c.bytes), percent_text(c.share_bytes),
        time_text(c.time_p50_ns), percent_text(c.share_time), c.weight_status,
        c.weight_status == "none" ? "" : fmt::format(" (max |w| {:.3g})", c.weight_max_abs));
    out += "    " + saving_text(c, terminal_tag) + "\n";
    if (verified) out += "    " + verification_text(verified, c, terminal_safe_line) + "\n";
  }
  for (const auto& h : r.held_back) out += "  " + held_back_text(h, terminal_safe_line) + "\n";
  if (!r.has_activations) {
    return out +
           "  this run has no activation statistics: profile with --activations to find modules that behave "
           "as zero or identity\n";
  }
  if (r.candidates.empty())
    out += "  no module behaves as zero or identity on these requests" + all_run(r) + "\n";
  return out;
}

std::string render_candidates_markdown(const CandidateReport& r, const CandidateVerifications* verified) {
  std::string out = "\n### Elimination candidates\n\n";
  if (verified) out += verify_header(*verified, markdown_text) + ".\n\n";
  if (r.has_activations) {
    out += thresholds(r.options) + ".\n\n";
  } else {
    out +=
        "No activation statistics in this run: profile with `--activations` to find modules that behave as "
        "zero "
        "or identity.\n\n";
  }
  if (!r.discarded.empty()) {
    out += "Computed then multiplied by zero:\n\n";
    out +=
        "| module | multiplied by | in | iterations | FLOPs | bytes | time P50 | time % | runs only to be "
        "discarded |\n";
    out += "|---|---|---|---:|---:|---:|---:|---:|---|\n";
    for (const auto& c : r.discarded) {
      std::string modules;
      for (const auto& m : c.discarded_modules) modules += (modules.empty() ? "" : ", ") + markdown_module(m);
      out +=
          fmt::format("| {} | {} = 0 ({}) | {} | {}/{} | {} | {} | {} | {} | {} |\n", markdown_module(c.path),
                      markdown_code(c.zero_factor, true), markdown_escape(c.zeroing_op),
                      markdown_module(c.zeroing_module), c.iterations, c.run_iterations, discarded_flops(c),
                      bytes_text(c.bytes), time_text(c.time_p50_ns), percent_text(c.share_time), modules);
    }
    out += "\n";
  }
  for (const auto& h : r.held_back) out += held_back_text(h, markdown_text) + ".\n\n";
  if (r.candidates.empty()) {
    if (!r.has_activations) return out;
    return out + "No module behaves as zero or identity on these requests" + all_run(r) + ".\n";
  }
  out += "| module | behaves as | held | FLOPs | bytes | time P50 | time % | weights | removing it |";
  out += verified ? " outputs when ablated |\n" : "\n";
  out += verified ? "|---|---|---:|---:|---:|---:|---:|---|---|---|\n"
                  : "|---|---|---:|---:|---:|---:|---:|---|---|\n";
  for (const auto& c : r.candidates) {
    const bool never = c.kind == CandidateKind::kNeverRun;
    out += fmt::format(
        "| {} | {} | {} | {} | {} | {} | {} | {} | {} |\n", markdown_code(c.path, true),
        never ? never_runs_text(c, markdown_tag) : to_string(c.kind),
        never ? "-" : fmt::format("{}/{}", c.held, c.calls), flops_text(c.flops), bytes_text(c.bytes),
        time_text(c.time_p50_ns), percent_text(c.share_time),
        never ? fmt::format("{} ({})", c.weight_status, candidate_weights_text(c)) : c.weight_status,
        saving_text(c, markdown_tag).substr(std::string_view("removing it ").size()));
    if (verified) {
      out.pop_back();
      out += " " + verification_text(verified, c, markdown_escape_text) + " |\n";
    }
  }
  return out;
}

nlohmann::ordered_json candidates_json(const CandidateReport& r, const CandidateVerifications* verified) {
  nlohmann::ordered_json list = nlohmann::ordered_json::array();
  for (const auto& c : r.candidates) {
    nlohmann::ordered_json sets = nlohmann::ordered_json::array();
    for (const auto& v : c.by_input_set) {
      sets.push_back({{"tag", v.tag},
                      {"calls", v.calls},
                      {"held", v.held},
                      {"runs", v.runs},
                      {"needed", v.needed},
                      {"flops", v.flops},
                      {"bytes", v.bytes},
                      {"time_p50_ns", v.time_p50_ns}});
    }
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
                    {"params", c.params},
                    {"param_values", c.param_values},
                    {"param_bytes", c.param_bytes},
                    {"conditional", c.conditional()},
                    {"weight_max_abs", c.weight_max_abs},
                    {"flops", c.flops},
                    {"bytes", c.bytes},
                    {"time_p50_ns", c.time_p50_ns},
                    {"share_flops", c.share_flops},
                    {"share_bytes", c.share_bytes},
                    {"share_time", c.share_time},
                    {"by_input_set", std::move(sets)}});
    if (const CandidateVerification* v = verified ? verified->find(c.path) : nullptr) {
      list.back()["verification"] = {
          {"status", to_string(v->status)},
          {"mode", to_string(v->mode)},
          {"max_rel_change", v->max_rel_change ? nlohmann::ordered_json(*v->max_rel_change) : nullptr},
          {"call_sites", v->call_sites},
          {"text", v->text}};
    }
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
  nlohmann::ordered_json held = nlohmann::ordered_json::array();
  for (const auto& h : r.held_back) {
    held.push_back({{"path", h.path},
                    {"type", h.type},
                    {"param", h.read.param},
                    {"op", h.read.op},
                    {"module", h.read.module},
                    {"tensor", h.read.tensor}});
  }
  nlohmann::ordered_json out = {{"has_activations", r.has_activations},
                                {"zero_threshold", r.options.zero_threshold},
                                {"identity_threshold", r.options.identity_threshold},
                                {"min_share_of_calls", r.options.min_share_of_calls},
                                {"input_sets", r.input_sets},
                                {"modules", std::move(list)},
                                {"discarded", std::move(discarded)},
                                {"held_back", std::move(held)}};
  if (verified) {
    out["verify"] = {
        {"tolerance", verified->tolerance}, {"model", verified->model_path}, {"inputs", verified->inputs}};
  }
  return out;
}

}  // namespace flopscope::cli
