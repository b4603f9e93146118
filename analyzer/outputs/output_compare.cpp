#include "analyzer/outputs/output_compare.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <set>
#include <unordered_map>

#include "analyzer/outputs/output_verdict.h"
#include "db/model/dtype.h"

namespace flopscope {

const char* to_string(OutputsStatus s) {
  switch (s) {
    case OutputsStatus::kAbsent:
      return "absent";
    case OutputsStatus::kCompared:
      return "compared";
    case OutputsStatus::kNotComparable:
      return "not_comparable";
  }
  return "absent";
}

namespace {

std::string shape_text(const std::vector<std::int64_t>& shape) {
  std::string s = "[";
  for (std::size_t i = 0; i < shape.size(); ++i) s += (i ? ", " : "") + std::to_string(shape[i]);
  return s + "]";
}

// "3.1e-7": two significant digits, no padded exponent.
std::string sci(double v) {
  if (v == 0) return "0";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1e", v);
  std::string s = buf;
  const auto e = s.find('e');
  if (e == std::string::npos) return s;
  std::string mant = s.substr(0, e), exp = s.substr(e + 1);
  const bool neg = !exp.empty() && exp[0] == '-';
  if (!exp.empty() && (exp[0] == '-' || exp[0] == '+')) exp.erase(0, 1);
  exp.erase(0, std::min(exp.find_first_not_of('0'), exp.size() - 1));
  return mant + "e" + (neg ? "-" : "") + exp;
}

// The per-call comparison of one tensor; nullopt fields mean unknown (a side was summarized).
OutputTensorComparison compare_tensor(const OutputTensor& a, const OutputTensor& b) {
  OutputTensorComparison t;
  t.name = a.name;
  t.dtype_a = a.dtype;
  t.dtype_b = b.dtype;
  t.shape_a = a.shape;
  t.shape_b = b.shape;
  t.nan_a = a.nan_count;
  t.inf_a = a.inf_count;
  t.nan_b = b.nan_count;
  t.inf_b = b.inf_count;
  if (a.dtype != b.dtype) {
    t.comparable = false;
    t.problem = "dtype " + a.dtype + " vs " + b.dtype;
    return t;
  }
  if (a.shape != b.shape) {
    t.comparable = false;
    t.problem = "shape " + shape_text(a.shape) + " vs " + shape_text(b.shape);
    return t;
  }
  const bool floating = is_floating_dtype(a.dtype);
  if (floating && !a.argmax.empty() && a.argmax.size() == b.argmax.size()) {
    t.top1_total = static_cast<std::int64_t>(a.argmax.size());
    for (std::size_t i = 0; i < a.argmax.size(); ++i) t.top1_agree += a.argmax[i] == b.argmax[i];
  }
  t.exact = !a.sha256.empty() && a.sha256 == b.sha256;
  if (t.exact) {
    t.max_abs_delta = t.max_rel_change = t.rms_delta = 0.0;
    t.cosine = 1.0;
    return t;
  }
  if (a.summarized || b.summarized || a.values.size() != b.values.size()) {
    t.from_summary = true;
    return t;
  }
  // Elements where either side is NaN or infinite are counted (nan_*, inf_*), not measured.
  double max_abs = 0, sum_sq = 0, dot = 0, norm_a = 0, norm_b = 0;
  std::int64_t finite = 0;
  for (std::size_t i = 0; i < a.values.size(); ++i) {
    const double x = a.values[i], y = b.values[i];
    if (!floating) t.mismatched += !(x == y);
    if (!std::isfinite(x) || !std::isfinite(y)) continue;
    const double d = std::fabs(y - x);
    max_abs = std::max(max_abs, d);
    sum_sq += d * d;
    dot += x * y;
    norm_a += x * x;
    norm_b += y * y;
    ++finite;
  }
  t.max_abs_delta = max_abs;
  // Relative to A's magnitude; when A is all zero and B is not, to B's (a change of 100%).
  const double scale = a.max_abs > 0 ? a.max_abs : b.max_abs;
  t.max_rel_change = scale > 0 ? max_abs / scale : 0.0;
  t.rms_delta = finite ? std::sqrt(sum_sq / static_cast<double>(finite)) : 0.0;
  if (norm_a == 0 && norm_b == 0)
    t.cosine = 1.0;
  else if (norm_a == 0 || norm_b == 0)
    t.cosine = 0.0;
  else
    t.cosine = dot / (std::sqrt(norm_a) * std::sqrt(norm_b));
  return t;
}

std::optional<double> worst(std::optional<double> acc, std::optional<double> v, bool larger) {
  if (!acc || !v) return std::nullopt;
  return larger ? std::max(*acc, *v) : std::min(*acc, *v);
}

// Folds one call's comparison of a tensor into the tensor's running one: maxima over calls (cosine: minimum),
// counts summed.
void fold(OutputTensorComparison& acc, const OutputTensorComparison& t) {
  acc.exact = acc.exact && t.exact;
  acc.from_summary = acc.from_summary || t.from_summary;
  acc.max_abs_delta = worst(acc.max_abs_delta, t.max_abs_delta, true);
  acc.max_rel_change = worst(acc.max_rel_change, t.max_rel_change, true);
  acc.rms_delta = worst(acc.rms_delta, t.rms_delta, true);
  acc.cosine = worst(acc.cosine, t.cosine, false);
  acc.top1_agree += t.top1_agree;
  acc.top1_total += t.top1_total;
  acc.mismatched += t.mismatched;
  acc.nan_a += t.nan_a;
  acc.inf_a += t.inf_a;
  acc.nan_b += t.nan_b;
  acc.inf_b += t.inf_b;
}

std::string names_text(const std::vector<std::string>& names) {
  std::string s;
  for (const auto& n : names) s += (s.empty() ? "" : ", ") + n;
  return s.empty() ? "none" : s;
}

// Why the two calls' returned values cannot be held against each other by name, or "" when they can.
std::string structure_problem(const OutputRecord& a, const OutputRecord& b) {
  std::vector<std::string> na, nb;
  for (const auto& t : a.tensors) na.push_back(t.name);
  for (const auto& t : b.tensors) nb.push_back(t.name);
  if (na.size() != nb.size())
    return "A returned " + std::to_string(na.size()) + " output tensor" + (na.size() == 1 ? "" : "s") + " (" +
           names_text(na) + "), B " + std::to_string(nb.size()) + " (" + names_text(nb) + ")";
  const std::set<std::string> sa(na.begin(), na.end()), sb(nb.begin(), nb.end());
  if (sa.size() != na.size() || sb.size() != nb.size())
    return "an output tensor name repeats within one call";
  if (sa != sb)
    return "the output tensors are named differently: A " + names_text(na) + ", B " + names_text(nb);
  return "";
}

// The smallest power of ten at or above v: "1e-6" for 3.1e-7.
std::string equivalence_bound(double v) {
  const int k = static_cast<int>(std::ceil(std::log10(v) - 1e-12));
  return "1e" + std::to_string(k);
}

}  // namespace

OutputComparison compare_outputs(const std::vector<OutputRecord>& a, const std::vector<OutputRecord>& b) {
  OutputComparison c;
  if (a.empty() && b.empty()) return c;
  if (a.empty() || b.empty()) {
    c.reason = std::string("only ") + (a.empty() ? "B" : "A") + " has outputs: outputs not compared";
    return c;
  }
  // The first call of each distinct input on B's side; A's calls in their order.
  std::unordered_map<std::string, const OutputRecord*> b_by_input;
  for (const auto& r : b) b_by_input.emplace(r.input_hash, &r);
  std::set<std::string> seen;
  std::map<std::string, OutputTensorComparison> by_name;
  std::vector<std::string> order;
  for (const auto& ra : a) {
    if (!seen.insert(ra.input_hash).second) continue;
    const auto it = b_by_input.find(ra.input_hash);
    if (it == b_by_input.end()) continue;
    const OutputRecord& rb = *it->second;
    if (const std::string problem = structure_problem(ra, rb); !problem.empty()) {
      c.status = OutputsStatus::kNotComparable;
      c.reason = problem + ": outputs not compared";
      c.tensors.clear();
      return c;
    }
    ++c.calls_compared;
    for (const auto& ta : ra.tensors) {
      const auto tb = std::find_if(rb.tensors.begin(), rb.tensors.end(),
                                   [&](const OutputTensor& t) { return t.name == ta.name; });
      OutputTensorComparison t = compare_tensor(ta, *tb);
      auto [slot, fresh] = by_name.try_emplace(ta.name, t);
      if (fresh) {
        order.push_back(ta.name);
      } else if (slot->second.comparable && t.comparable) {
        fold(slot->second, t);
      } else if (slot->second.comparable) {
        slot->second = t;  // a later call that cannot be compared decides
      }
    }
  }
  if (c.calls_compared == 0) {
    c.status = OutputsStatus::kNotComparable;
    c.reason = "inputs differ: outputs not compared";
    return c;
  }
  std::set<std::string> only_b;
  for (const auto& r : b)
    if (!seen.count(r.input_hash)) only_b.insert(r.input_hash);
  c.calls_left_out = static_cast<int>(seen.size() + only_b.size()) - c.calls_compared;
  c.exact = true;
  c.max_rel_change = 0.0;
  for (const auto& name : order) {
    const OutputTensorComparison& t = by_name.at(name);
    c.tensors.push_back(t);
    c.non_finite = c.non_finite || t.nan_a || t.inf_a || t.nan_b || t.inf_b;
    if (!t.comparable) {
      if (c.status != OutputsStatus::kNotComparable)
        c.reason = "output " + t.name + " has " + t.problem + ": outputs not compared";
      c.status = OutputsStatus::kNotComparable;
      continue;
    }
    c.exact = c.exact && t.exact;
    c.max_rel_change = worst(c.max_rel_change, t.max_rel_change, true);
    c.top1_agree += t.top1_agree;
    c.top1_total += t.top1_total;
  }
  if (c.status == OutputsStatus::kNotComparable) {
    c.exact = false;
    c.max_rel_change.reset();
    return c;
  }
  c.status = OutputsStatus::kCompared;
  return c;
}

std::string output_verdict(const OutputComparison& c) {
  if (c.status == OutputsStatus::kAbsent) return "";
  if (c.status == OutputsStatus::kNotComparable) return "outputs: " + c.reason;
  std::string out = "outputs ";
  if (c.exact)
    out += "equal to the last bit";
  else if (!c.max_rel_change)
    out += "differ (a side was summarized)";
  else if (*c.max_rel_change == 0)
    out += "equal in value";
  else if (*c.max_rel_change <= kEquivalentRelChange)
    out += "equivalent within " + equivalence_bound(*c.max_rel_change);
  else
    out += "CHANGED (relative change " + sci(*c.max_rel_change) + ")";
  return c.non_finite ? out + ", with NaN/Inf" : out;
}

std::string output_line(const OutputComparison& c) {
  if (c.status == OutputsStatus::kAbsent) return c.reason.empty() ? "" : "outputs: " + c.reason;
  if (c.status == OutputsStatus::kNotComparable) return "outputs: " + c.reason;
  std::string line = "outputs: ";
  std::string top1;
  if (c.top1_total > 0)
    top1 = "top-1 agreement " + std::to_string(c.top1_agree) + "/" + std::to_string(c.top1_total);
  if (c.exact) {
    line += "equal to the last bit";
    if (!top1.empty()) line += " (" + top1 + ")";
  } else {
    double max_abs = 0;
    bool abs_known = true;
    for (const auto& t : c.tensors) {
      if (t.max_abs_delta)
        max_abs = std::max(max_abs, *t.max_abs_delta);
      else
        abs_known = false;
    }
    if (abs_known && c.max_rel_change) {
      line += "max |Δ| " + sci(max_abs) + " (relative " + sci(*c.max_rel_change) + ")";
    } else {
      line += "differ (a side was summarized: max |Δ| unknown)";
    }
    if (!top1.empty()) line += ", " + top1;
    if (c.max_rel_change) {
      if (*c.max_rel_change == 0)
        line += ": equal in value";  // not in bits: -0 and +0, or NaN payloads
      else if (*c.max_rel_change <= kEquivalentRelChange)
        line += ": equivalent within " + equivalence_bound(*c.max_rel_change);
      else
        line += ": CHANGED";
    }
  }
  if (c.non_finite) {
    std::int64_t nan_a = 0, inf_a = 0, nan_b = 0, inf_b = 0;
    for (const auto& t : c.tensors) {
      nan_a += t.nan_a;
      inf_a += t.inf_a;
      nan_b += t.nan_b;
      inf_b += t.inf_b;
    }
    auto side = [](const char* s, std::int64_t nan, std::int64_t inf) {
      std::string r;
      if (nan) r += std::to_string(nan) + " NaN";
      if (inf) r += (r.empty() ? "" : ", ") + std::to_string(inf) + " Inf";
      return r.empty() ? r : r + " in " + s;
    };
    std::string parts = side("A", nan_a, inf_a);
    const std::string pb = side("B", nan_b, inf_b);
    if (!pb.empty()) parts += (parts.empty() ? "" : "; ") + pb;
    line += "; NON-FINITE: " + parts;
  }
  if (c.calls_left_out > 0)
    line += " (" + std::to_string(c.calls_compared) + " input" + (c.calls_compared == 1 ? "" : "s") +
            " compared, " + std::to_string(c.calls_left_out) + " seen on one side only)";
  return line;
}

}  // namespace flopscope
