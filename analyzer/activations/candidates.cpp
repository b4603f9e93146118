#include "analyzer/activations/candidates.h"

#include <algorithm>
#include <map>
#include <set>
#include <unordered_map>

namespace flopscope {
namespace {

double median(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  return percentile_sorted(v, 50);
}

bool is_descendant(const std::string& path, const std::string& ancestor) {
  return ancestor.empty() ||
         (path.size() > ancestor.size() && path.compare(0, ancestor.size(), ancestor) == 0 &&
          path[ancestor.size()] == '.');
}

}  // namespace

const char* to_string(CandidateKind kind) {
  return kind == CandidateKind::kZeroLike ? "zero-like" : "identity-like";
}

CandidateReport find_candidates(const RunData& run, const RunSummary& summary,
                                const CandidateOptions& options) {
  CandidateReport report;
  report.options = options;
  report.has_activations = !run.activations.empty();
  if (!report.has_activations) return report;

  std::unordered_map<Id, std::vector<const ActivationRecord*>> by_module;
  std::set<std::string> tags;
  for (const auto& a : run.activations) {
    by_module[a.module_id].push_back(&a);
    tags.insert(a.input_tag);
  }
  report.input_sets.assign(tags.begin(), tags.end());

  std::unordered_map<Id, std::string> path_of;
  for (const auto& m : run.modules) path_of[m.id] = m.path;

  std::vector<Candidate> found;
  for (const auto& [module_id, calls] : by_module) {
    int idx = summary.find(path_of[module_id]);
    if (idx <= 0) continue;  // unknown module or the model itself
    const ModuleSummary& ms = summary.modules[static_cast<std::size_t>(idx)];
    for (CandidateKind kind : {CandidateKind::kZeroLike, CandidateKind::kIdentityLike}) {
      Candidate c;
      c.path = ms.path;
      c.type = ms.type;
      c.kind = kind;
      std::map<std::string, InputSetVerdict> per_tag;
      std::vector<double> rms, rel;
      for (const ActivationRecord* a : calls) {
        bool applicable = kind == CandidateKind::kZeroLike || a->has_rel_change;
        if (!applicable) continue;
        bool held = kind == CandidateKind::kZeroLike ? a->out_rms() < options.zero_threshold
                                                     : a->rel_change < options.identity_threshold;
        ++c.calls;
        c.held += held ? 1 : 0;
        auto& t = per_tag[a->input_tag];
        t.tag = a->input_tag;
        ++t.calls;
        t.held += held ? 1 : 0;
        rms.push_back(a->out_rms());
        if (a->has_rel_change) rel.push_back(a->rel_change);
      }
      if (c.calls == 0) continue;
      c.share_held = static_cast<double>(c.held) / c.calls;
      if (c.share_held < options.min_share_of_calls) continue;
      c.median_out_rms = median(rms);
      c.max_out_rms = rms.empty() ? 0 : *std::max_element(rms.begin(), rms.end());
      c.median_rel_change = median(rel);
      for (auto& [tag, v] : per_tag) c.by_input_set.push_back(v);
      c.flops = ms.inclusive.flops;
      c.bytes = ms.inclusive.bytes();
      c.time_p50_ns = ms.inclusive_time.p50;
      c.share_flops = ms.share_flops;
      c.share_bytes = summary.total.bytes() > 0 ? c.bytes / summary.total.bytes() : 0;
      c.share_time = ms.share_time;
      // Weight status over the module's subtree.
      bool any = false, all_zero = true;
      for (const auto& p : run.params) {
        const std::string& pp = path_of[p.module_id];
        if (pp != c.path && !is_descendant(pp, c.path)) continue;
        any = true;
        c.weight_max_abs = std::max(c.weight_max_abs, p.max_abs);
        all_zero = all_zero && p.max_abs == 0;
      }
      c.weight_status = !any                                     ? "none"
                        : all_zero                               ? "ZEROED"
                        : c.weight_max_abs < options.tiny_weight ? "tiny"
                                                                 : "ACTIVE";
      found.push_back(std::move(c));
      break;  // zero-like wins over identity-like for the same module
    }
  }
  // Inside a listed module, its descendants are not listed again for the same reason: remove the outermost.
  std::vector<Candidate> kept;
  for (const auto& c : found) {
    bool covered = std::any_of(found.begin(), found.end(), [&](const Candidate& o) {
      return o.kind == c.kind && is_descendant(c.path, o.path);
    });
    if (!covered) kept.push_back(c);
  }
  std::sort(kept.begin(), kept.end(), [](const Candidate& a, const Candidate& b) {
    if (a.share_time != b.share_time) return a.share_time > b.share_time;
    return a.path < b.path;
  });
  report.candidates = std::move(kept);
  report.discarded = find_discarded(run, summary).candidates;
  return report;
}

}  // namespace flopscope
