#include "analyzer/activations/candidates.h"

#include <algorithm>
#include <cmath>
#include <unordered_map>

#include "analyzer/activations/input_sets.h"
#include "analyzer/module_types.h"

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

// The parameters and buffers of a module's subtree.
struct SubtreeWeights {
  int tensors = 0;
  std::int64_t values = 0;
  double bytes = 0;
  double max_abs = 0;
  bool all_zero = true;
};

SubtreeWeights weights_of(const RunData& run, const std::vector<std::size_t>& params) {
  SubtreeWeights s;
  for (std::size_t i : params) {
    const ParamRecord& p = run.params[i];
    ++s.tensors;
    s.values += p.numel;
    s.bytes += static_cast<double>(p.bytes);
    s.max_abs = std::max(s.max_abs, p.max_abs);
    s.all_zero = s.all_zero && p.max_abs == 0;
  }
  return s;
}

// One input set as the candidates see it: its tag and the summary of its iterations (the whole run's when
// the run has one set, or when the sets cannot be told apart).
struct SetView {
  std::string tag;
  const RunSummary* summary = nullptr;
};

// The module at `index` of the whole run's summary, in a set's summary (the same tree, so the same index).
const ModuleSummary* in_set(const SetView& set, const RunSummary& whole, std::size_t index) {
  const auto& mods = set.summary->modules;
  if (index < mods.size() && mods[index].path == whole.modules[index].path) return &mods[index];
  int j = set.summary->find(whole.modules[index].path);
  return j < 0 ? nullptr : &mods[static_cast<std::size_t>(j)];
}

// Calls of a module over the iterations of a summary, as the module tree counts them.
int tree_calls(const ModuleSummary& m, const RunSummary& s) {
  return static_cast<int>(std::lround(m.calls * s.iterations));
}

// The sets on which removing the candidate costs nothing in results: `covers` holds when a listed ancestor
// is free on every set the descendant is, so listing the descendant again adds nothing.
bool covers(const Candidate& ancestor, const Candidate& c) {
  if (ancestor.kind != c.kind || !is_descendant(c.path, ancestor.path)) return false;
  for (std::size_t k = 0; k < c.by_input_set.size() && k < ancestor.by_input_set.size(); ++k) {
    if (!c.by_input_set[k].needed && ancestor.by_input_set[k].needed) return false;
  }
  return true;
}

}  // namespace

const char* to_string(CandidateKind kind) {
  switch (kind) {
    case CandidateKind::kZeroLike:
      return "zero-like";
    case CandidateKind::kIdentityLike:
      return "identity-like";
    case CandidateKind::kNeverRun:
      return "never-run";
  }
  return "?";
}

bool Candidate::conditional() const {
  return std::any_of(by_input_set.begin(), by_input_set.end(), [](const auto& v) { return v.needed; });
}

namespace {

// What find_candidates reads about the run once, shared by its per-module judgements.
struct CandidateScan {
  const RunData& run;
  const RunSummary& summary;
  const CandidateOptions& options;
  // Whether a module ran is the module tree's call count, which needs the op rows (a summary of the stored
  // aggregates has no calls) and a model that ran at all.
  bool calls_known = false;
  std::vector<RunSummary> set_summaries;
  std::vector<SetView> sets;
  std::vector<std::vector<const ActivationRecord*>> records;  // by module index
  std::vector<std::vector<std::size_t>> params_of;            // by module index, its subtree's parameters
  std::map<std::size_t, WeightRead> read;  // parameters of modules that never run, read by other modules' ops

  CandidateScan(const RunData& r, const RunSummary& s, const CandidateOptions& o,
                const std::map<int, std::string>& iteration_sets, const std::vector<std::string>& tags)
      : run(r), summary(s), options(o) {
    calls_known = run.raw_rows && !summary.from_aggregates && summary.modules[0].calls > 0;
    index_records();
    view_sets(iteration_sets, tags);
  }
  bool one_set() const { return sets.size() == 1; }

  void view_sets(const std::map<int, std::string>& iteration_sets, const std::vector<std::string>& tags) {
    if (tags.size() > 1 && calls_known) {
      set_summaries.reserve(tags.size());
      for (const auto& tag : tags) set_summaries.push_back(summarize_input_set(run, iteration_sets, tag));
      for (std::size_t k = 0; k < tags.size(); ++k) sets.push_back({tags[k], &set_summaries[k]});
    } else if (tags.size() > 1) {
      for (const auto& tag : tags) sets.push_back({tag, &summary});
    } else {
      sets.push_back({tags.empty() ? "" : tags.front(), &summary});
    }
  }

  // Each module's activation records and subtree's parameters; those of modules that never run, and the
  // ops of other modules that take tensors like them.
  void index_records() {
    std::unordered_map<Id, std::size_t> index_of;
    for (std::size_t i = 0; i < summary.modules.size(); ++i)
      index_of.emplace(summary.modules[i].module_id, i);
    records.resize(summary.modules.size());
    for (const auto& a : run.activations) {
      auto it = index_of.find(a.module_id);
      if (it != index_of.end()) records[it->second].push_back(&a);
    }
    params_of.resize(summary.modules.size());
    std::vector<std::size_t> idle_params;
    for (std::size_t p = 0; p < run.params.size(); ++p) {
      auto it = index_of.find(run.params[p].module_id);
      if (it == index_of.end()) continue;
      for (int m = static_cast<int>(it->second); m >= 0;
           m = summary.modules[static_cast<std::size_t>(m)].parent)
        params_of[static_cast<std::size_t>(m)].push_back(p);
      if (calls_known && summary.modules[it->second].calls == 0) idle_params.push_back(p);
    }
    read = weights_read_elsewhere(run, idle_params);
  }

  bool child_computes(const ModuleSummary& m) const {
    return std::any_of(m.children.begin(), m.children.end(),
                       [&](int k) { return summary.modules[static_cast<std::size_t>(k)].calls > 0; });
  }

  // The module's costs and weights, whatever it turns out to be.
  Candidate describe(std::size_t idx, const SubtreeWeights& w) const {
    const ModuleSummary& ms = summary.modules[idx];
    Candidate c;
    c.path = ms.path;
    c.type = ms.type;
    c.params = w.tensors;
    c.param_values = w.values;
    c.param_bytes = w.bytes;
    c.weight_max_abs = w.max_abs;
    c.weight_status = w.tensors == 0                    ? "none"
                      : w.all_zero                      ? "ZEROED"
                      : w.max_abs < options.tiny_weight ? "tiny"
                                                        : "ACTIVE";
    c.flops = ms.inclusive.flops;
    c.bytes = ms.inclusive.bytes();
    c.time_p50_ns = ms.inclusive_time.p50;
    c.share_flops = ms.share_flops;
    c.share_bytes = summary.total.bytes() > 0 ? c.bytes / summary.total.bytes() : 0;
    c.share_time = ms.share_time;
    return c;
  }

  // Per input set: whether the module runs there, and its costs there.
  std::vector<InputSetVerdict> base_verdicts(std::size_t idx) const {
    std::vector<InputSetVerdict> base;
    for (const SetView& s : sets) {
      InputSetVerdict v;
      v.tag = s.tag;
      if (const ModuleSummary* m = in_set(s, summary, idx)) {
        v.runs = !calls_known || m->calls > 0;
        v.flops = m->inclusive.flops;
        v.bytes = m->inclusive.bytes();
        v.time_p50_ns = m->inclusive_time.p50;
      }
      base.push_back(v);
    }
    return base;
  }

  // Behaviour: only calls the module tree counts (a module that runs no op has nothing to remove), and
  // never a container for what its children compute. Zero-like wins over identity-like for one module.
  bool judge_behaviour(std::size_t idx, const std::vector<InputSetVerdict>& base, Candidate& c) const {
    const ModuleSummary& ms = summary.modules[idx];
    const bool judged = !records[idx].empty() && (!calls_known || ms.calls > 0) &&
                        !(is_container_type(ms.type) && child_computes(ms));
    if (!judged) return false;
    for (CandidateKind kind : {CandidateKind::kZeroLike, CandidateKind::kIdentityLike})
      if (judge_kind(idx, kind, base, c)) return true;
    return false;
  }

  bool judge_kind(std::size_t idx, CandidateKind kind, const std::vector<InputSetVerdict>& base,
                  Candidate& c) const {
    std::vector<InputSetVerdict> by_set = base;
    std::vector<double> rms, rel;
    int calls = 0, held = 0;
    for (const ActivationRecord* a : records[idx]) {
      if (kind == CandidateKind::kIdentityLike && !a->has_rel_change) continue;
      const bool h = kind == CandidateKind::kZeroLike ? a->out_rms() < options.zero_threshold
                                                      : a->rel_change < options.identity_threshold;
      auto v = one_set() ? by_set.begin()
                         : std::find_if(by_set.begin(), by_set.end(),
                                        [&](const InputSetVerdict& x) { return x.tag == a->input_tag; });
      if (v == by_set.end()) continue;
      ++v->calls;
      v->held += h ? 1 : 0;
      ++calls;
      held += h ? 1 : 0;
      rms.push_back(a->out_rms());
      if (a->has_rel_change) rel.push_back(a->rel_change);
    }
    bool holds_somewhere = false;
    for (auto& v : by_set) {
      const bool holds = v.calls > 0 && static_cast<double>(v.held) / v.calls >= options.min_share_of_calls;
      // A set that runs the module with no call to judge it by needs it: no evidence is not zero.
      v.needed = v.runs && !holds;
      holds_somewhere = holds_somewhere || holds;
    }
    if (!holds_somewhere) return false;
    c.kind = kind;
    c.calls = calls;
    c.held = held;
    c.share_held = static_cast<double>(held) / calls;
    c.median_out_rms = median(rms);
    c.max_out_rms = rms.empty() ? 0 : *std::max_element(rms.begin(), rms.end());
    c.median_rel_change = median(rel);
    c.by_input_set = std::move(by_set);
    return true;
  }

  // Never-run: parameters kept for a module that ran no op on some set of these requests. A module whose
  // parameters other ops read is held back instead (its outermost held-back ancestor only).
  bool judge_never_run(std::size_t idx, const SubtreeWeights& w, std::vector<InputSetVerdict> base,
                       Candidate& c, CandidateReport& report) const {
    const ModuleSummary& ms = summary.modules[idx];
    if (!calls_known || w.tensors == 0 ||
        std::none_of(base.begin(), base.end(), [](const InputSetVerdict& v) { return !v.runs; }))
      return false;
    auto evidence = std::find_if(params_of[idx].begin(), params_of[idx].end(),
                                 [&](std::size_t p) { return read.contains(p); });
    if (evidence != params_of[idx].end()) {
      const bool parent_held =
          std::any_of(report.held_back.begin(), report.held_back.end(),
                      [&](const HeldBackModule& h) { return is_descendant(ms.path, h.path); });
      if (!parent_held) report.held_back.push_back({ms.path, ms.type, read.at(*evidence)});
      return false;
    }
    c.kind = CandidateKind::kNeverRun;
    for (std::size_t k = 0; k < base.size(); ++k) {
      InputSetVerdict& v = base[k];
      v.needed = v.runs;
      if (const ModuleSummary* m = in_set(sets[k], summary, idx)) v.calls = tree_calls(*m, *sets[k].summary);
      c.calls += v.calls;
    }
    c.by_input_set = std::move(base);
    return true;
  }
};

// Inside a listed module, its descendants are not listed again for the same reason: the outermost kept,
// never-run last, the others by time share, never-run by parameter bytes.
std::vector<Candidate> outermost_sorted(const std::vector<Candidate>& found, bool sets_known) {
  std::vector<Candidate> kept;
  for (const auto& c : found) {
    if (std::none_of(found.begin(), found.end(), [&](const Candidate& o) { return covers(o, c); }))
      kept.push_back(c);
  }
  for (auto& c : kept) {
    if (!sets_known) c.by_input_set.clear();  // no activation statistics: sets unknown
  }
  std::sort(kept.begin(), kept.end(), [](const Candidate& a, const Candidate& b) {
    const bool na = a.kind == CandidateKind::kNeverRun, nb = b.kind == CandidateKind::kNeverRun;
    if (na != nb) return nb;
    if (!na && a.share_time != b.share_time) return a.share_time > b.share_time;
    if (na && a.param_bytes != b.param_bytes) return a.param_bytes > b.param_bytes;
    return a.path < b.path;
  });
  return kept;
}

}  // namespace

CandidateReport find_candidates(const RunData& run, const RunSummary& summary,
                                const CandidateOptions& options) {
  CandidateReport report;
  report.options = options;
  report.has_activations = !run.activations.empty();
  if (summary.modules.empty()) return report;
  const std::map<int, std::string> iteration_sets = iteration_input_sets(run);
  report.input_sets = input_set_tags(iteration_sets);
  const CandidateScan scan(run, summary, options, iteration_sets, report.input_sets);
  std::vector<Candidate> found;
  for (std::size_t idx = 1; idx < summary.modules.size(); ++idx) {  // [0] is the model itself
    const SubtreeWeights w = weights_of(run, scan.params_of[idx]);
    Candidate c = scan.describe(idx, w);
    std::vector<InputSetVerdict> base = scan.base_verdicts(idx);
    if (scan.judge_behaviour(idx, base, c) || scan.judge_never_run(idx, w, std::move(base), c, report))
      found.push_back(std::move(c));
  }
  report.candidates = outermost_sorted(found, !report.input_sets.empty());
  report.discarded = find_discarded(run, summary).candidates;
  return report;
}

}  // namespace flopscope
