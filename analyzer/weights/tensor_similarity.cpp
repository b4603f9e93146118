#include "analyzer/weights/tensor_similarity.h"

#include <cmath>

namespace flopscope {
std::string shape_key(const std::vector<std::int64_t>& shape) {
  std::string k;
  for (auto d : shape) k += std::to_string(d) + ",";
  return k;
}

namespace {

// The sketch with the mean removed from every bucket (bucket k holds n_k elements); empty for a constant
// tensor (nothing left once the mean is gone).
std::vector<double> centred(const ParamRecord& p) {
  const auto n = p.numel;
  if (n <= 0 || p.sketch.size() != static_cast<std::size_t>(kSketchBuckets)) return {};
  const double mean = p.sum / static_cast<double>(n);
  std::vector<double> c(p.sketch.size());
  double norm2 = 0, scale = 0;
  for (int k = 0; k < kSketchBuckets; ++k) {
    const auto count = static_cast<double>(n / kSketchBuckets + (k < n % kSketchBuckets ? 1 : 0));
    c[static_cast<std::size_t>(k)] = p.sketch[static_cast<std::size_t>(k)] - mean * count;
    norm2 += c[static_cast<std::size_t>(k)] * c[static_cast<std::size_t>(k)];
    scale += std::fabs(p.sketch[static_cast<std::size_t>(k)]);
  }
  // Rounding of the bucket sums themselves: a constant tensor leaves about 1e-16 of each bucket.
  if (std::sqrt(norm2) <= 1e-12 * (scale + 1e-300)) return {};
  return c;
}

bool both_constant_and_equal(const ParamRecord& a, const ParamRecord& b) {
  if (a.sketch.empty() || b.sketch.empty() || a.numel != b.numel || a.numel <= 0) return false;
  if (!centred(a).empty() || !centred(b).empty()) return false;
  const double ma = a.sum / static_cast<double>(a.numel), mb = b.sum / static_cast<double>(b.numel);
  return std::fabs(ma - mb) <= 1e-3 * std::max(std::fabs(ma), std::fabs(mb)) + 1e-12;
}

bool l2_close(const ParamRecord& a, const ParamRecord& b) {
  if (a.l2 <= 0 || b.l2 <= 0) return a.l2 == b.l2;
  const double r = a.l2 > b.l2 ? a.l2 / b.l2 : b.l2 / a.l2;
  return r <= kSimilarL2Ratio;
}

}  // namespace

std::optional<double> sketch_similarity(const ParamRecord& a, const ParamRecord& b) {
  if (a.numel != b.numel) return std::nullopt;
  const auto ca = centred(a), cb = centred(b);
  if (ca.empty() || cb.empty()) return std::nullopt;
  double dot = 0, na = 0, nb = 0;
  for (std::size_t k = 0; k < ca.size(); ++k) {
    dot += ca[k] * cb[k];
    na += ca[k] * ca[k];
    nb += cb[k] * cb[k];
  }
  return dot / std::sqrt(na * nb);
}

bool identifies_content(const ParamRecord& p) {
  if (p.sketch.size() == static_cast<std::size_t>(kSketchBuckets)) return !centred(p).empty();
  return !p.sha256.empty() && p.numel > 1;
}

const char* to_string(ContentRelation r) {
  switch (r) {
    case ContentRelation::kExact:
      return "exact";
    case ContentRelation::kSimilar:
      return "similar";
    case ContentRelation::kNone:
      break;
  }
  return "none";
}

ContentRelation content_relation(const ParamRecord& a, const ParamRecord& b) {
  if (a.shape != b.shape) return ContentRelation::kNone;
  if (!a.sha256.empty() && a.sha256 == b.sha256 && a.dtype == b.dtype) return ContentRelation::kExact;
  if (a.numel == 0) return ContentRelation::kNone;
  if (both_constant_and_equal(a, b)) return ContentRelation::kSimilar;
  auto s = sketch_similarity(a, b);
  if (s && *s >= kSimilarCosine && l2_close(a, b)) return ContentRelation::kSimilar;
  return ContentRelation::kNone;
}

ContentIndex::ContentIndex(const std::vector<const ParamRecord*>& tensors) {
  for (const ParamRecord* t : tensors) {
    if (t->numel == 0) continue;  // placeholders hold no content to find
    if (!t->sha256.empty()) by_hash_[t->sha256].push_back(t);
    by_shape_[shape_key(t->shape)].push_back(t);
  }
}

ContentIndex::Match ContentIndex::find(const ParamRecord& t) const {
  Match best;
  if (t.numel == 0) return best;
  if (!t.sha256.empty()) {
    auto it = by_hash_.find(t.sha256);
    if (it != by_hash_.end()) {
      for (const ParamRecord* c : it->second) {
        if (content_relation(t, *c) == ContentRelation::kExact) return {c, ContentRelation::kExact, 1.0};
      }
    }
  }
  auto it = by_shape_.find(shape_key(t.shape));
  if (it == by_shape_.end()) return best;
  for (const ParamRecord* c : it->second) {
    if (content_relation(t, *c) != ContentRelation::kSimilar) continue;
    const double s = sketch_similarity(t, *c).value_or(1.0);
    if (best.tensor == nullptr || s > best.similarity) best = {c, ContentRelation::kSimilar, s};
  }
  return best;
}

}  // namespace flopscope
