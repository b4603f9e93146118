// Whether two tensors hold the same content, or content that one became by small changes (fine-tuning,
// a merged low-rank update, a dtype cast): the evidence that a weight moved rather than vanished. Exact
// equality is the content hash; similarity is the centred cosine of the two tensors' bucket-sum sketches
// (ParamRecord::sketch), which estimates the Pearson correlation of the elements and needs no values.
#pragma once

#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "db/model/records.h"

namespace flopscope {

// At or above this centred sketch cosine (with the L2 norms within kSimilarL2Ratio) two tensors of one shape
// count as one tensor changed slightly. Unrelated tensors of a shape land near 0 (spread ~ 1/sqrt(61)).
inline constexpr double kSimilarCosine = 0.95;
inline constexpr double kSimilarL2Ratio = 1.5;

// Adds one element (its row-major flat index i) to a sketch of kSketchBuckets buckets.
struct SketchBuilder {
  std::vector<double> buckets = std::vector<double>(kSketchBuckets, 0.0);
  double sum = 0;
  int next = 0;  // i % kSketchBuckets of the next element
  void add(double x) {
    buckets[static_cast<std::size_t>(next)] += x;
    sum += x;
    if (++next == kSketchBuckets) next = 0;
  }
};

// A tensor shape as a lookup key ("16,8,"): tensors are only compared with tensors of their shape.
std::string shape_key(const std::vector<std::int64_t>& shape);

// Centred cosine of the sketches in [-1, 1]; nullopt when either has no sketch, their element counts differ,
// or either tensor is constant (then only the hash, the sum and the L2 norm can say anything).
std::optional<double> sketch_similarity(const ParamRecord& a, const ParamRecord& b);

// True when a tensor's values can tell it apart from others of its shape: not constant (a zero bias or a
// scalar equals every other one of its shape, which says nothing about where it went). Without a sketch
// (values not read or not decoded) a hash of more than one element is taken as telling.
bool identifies_content(const ParamRecord& p);

enum class ContentRelation { kNone, kSimilar, kExact };
const char* to_string(ContentRelation r);

// kExact: equal content hashes (and shapes); kSimilar: same shape, sketch cosine >= kSimilarCosine and L2
// norms within kSimilarL2Ratio, or both constant with equal means; kNone otherwise.
ContentRelation content_relation(const ParamRecord& a, const ParamRecord& b);

// B's tensors by content, to find where an A tensor went: the exact copy first, else the most similar one.
class ContentIndex {
 public:
  explicit ContentIndex(const std::vector<const ParamRecord*>& tensors);
  struct Match {
    const ParamRecord* tensor = nullptr;
    ContentRelation relation = ContentRelation::kNone;
    double similarity = 0;  // 1 for exact copies
  };
  // The best match of `t` among the indexed tensors (relation kNone when there is none).
  Match find(const ParamRecord& t) const;

 private:
  std::unordered_map<std::string, std::vector<const ParamRecord*>> by_hash_;
  std::unordered_map<std::string, std::vector<const ParamRecord*>> by_shape_;
};

}  // namespace flopscope
