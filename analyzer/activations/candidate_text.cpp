#include "analyzer/activations/candidate_text.h"

#include <fmt/format.h>

#include "analyzer/format.h"

namespace flopscope {
namespace {

// "random inputs" (requests made from --input specs) or "input set NAME".
std::string set_phrase(const std::string& tag, const EscapeTag& escape) {
  return tag.empty() ? "random inputs" : "input set " + escape(tag);
}

std::string cost_text(double flops, double bytes, double time_ns) {
  return fmt::format("{}, {} and about {} per iteration", flops_text(flops), bytes_text(bytes),
                     time_text(time_ns));
}

// "; needed on input set b (zero-like in 0 of 2 calls)", "" when no set needs the module.
std::string needed_text(const Candidate& c, const EscapeTag& escape) {
  std::string s;
  for (const auto& v : c.by_input_set) {
    if (!v.needed) continue;
    s += (s.empty() ? "; needed on " : ", on ") + set_phrase(v.tag, escape);
    s += c.kind == CandidateKind::kNeverRun
             ? " (runs there: " + cost_text(v.flops, v.bytes, v.time_p50_ns) + ")"
             : fmt::format(" ({} in {} of {} calls)", to_string(c.kind), v.held, v.calls);
  }
  return s;
}

}  // namespace

std::string tag_as_is(const std::string& tag) {
  return tag;
}

std::string candidate_weights_text(const Candidate& c) {
  return fmt::format("{}, {}", count_of(c.params, "param"), bytes_text(c.param_bytes));
}

std::string never_runs_text(const Candidate& c, const EscapeTag& escape) {
  std::string no, yes;
  for (const auto& v : c.by_input_set) {
    std::string& to = v.runs ? yes : no;
    to += (to.empty() ? "" : ", ") + set_phrase(v.tag, escape);
  }
  if (yes.empty() || no.empty()) return "never runs on these inputs";
  return "never runs on " + no + "; runs on " + yes;
}

std::string by_input_set_text(const Candidate& c, const EscapeTag& escape) {
  std::string s;
  for (const auto& v : c.by_input_set) {
    s += s.empty() ? "" : ", ";
    s += v.tag.empty() ? "random" : escape(v.tag);
    if (!v.runs)
      s += " never runs";
    else if (c.kind == CandidateKind::kNeverRun)
      s += fmt::format(" runs ({} calls)", v.calls);
    else
      s += fmt::format(" {}/{}", v.held, v.calls);
  }
  return s;
}

std::string saving_text(const Candidate& c, const EscapeTag& escape) {
  const bool never = c.kind == CandidateKind::kNeverRun;
  if (!c.conditional()) {
    if (never)
      return "removing it would save " + bytes_text(c.param_bytes) +
             " of weights; it runs no op on these inputs";
    std::string s = "removing it would save " + cost_text(c.flops, c.bytes, c.time_p50_ns);
    return c.by_input_set.empty() ? s : s + "; by input set: " + by_input_set_text(c, escape);
  }
  std::string free;
  for (const auto& v : c.by_input_set) {
    if (v.needed) continue;
    free += free.empty() ? "" : ", ";
    if (v.runs)
      free += cost_text(v.flops, v.bytes, v.time_p50_ns) + " on " + set_phrase(v.tag, escape);
    else if (c.params > 0)
      free +=
          bytes_text(c.param_bytes) + " of weights on " + set_phrase(v.tag, escape) + " (never runs there)";
    else
      free += "nothing on " + set_phrase(v.tag, escape) + " (never runs there)";
  }
  return "removing it would save " + free + needed_text(c, escape);
}

std::string behaviour_text(const Candidate& c) {
  if (c.kind == CandidateKind::kNeverRun) return never_runs_text(c) + " (" + candidate_weights_text(c) + ")";
  return fmt::format("{} ({} of {} calls)", to_string(c.kind), c.held, c.calls) + needed_text(c, tag_as_is);
}

}  // namespace flopscope
