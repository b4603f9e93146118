#include "analyzer/weights/moved_tensors.h"

#include <algorithm>
#include <cstdio>
#include <optional>
#include <unordered_map>

#include "analyzer/weights/tensor_similarity.h"
#include "db/model/module_path.h"

namespace flopscope {
namespace {

// One report's tensors as parameter records (the form tensor_similarity compares), indexed like the report.
struct Side {
  const WeightsReport& report;
  std::vector<ParamRecord> records;
  explicit Side(const WeightsReport& r) : report(r), records(to_param_records(r)) {}
  const ParamRecord& of(const TensorInfo* t) const {
    return records[static_cast<std::size_t>(t - report.tensors.data())];
  }
  const TensorInfo* tensor(const ParamRecord* p) const {
    return &report.tensors[static_cast<std::size_t>(p->id)];
  }
};

std::string module_of(const std::string& name) {
  return std::string(path_parent(name));
}

std::string leaf_of(const std::string& name) {
  return std::string(path_leaf(name));
}

std::string likeness(ContentRelation r, double similarity) {
  if (r == ContentRelation::kExact) return "exact copy";
  char buf[48];
  std::snprintf(buf, sizeof buf, "similar, cosine %.6f", similarity);
  return buf;
}

void set_moved(TensorComparison& row, ContentRelation r, double similarity) {
  row.change = TensorChange::kMoved;
  row.relation = r;
  row.similarity = r == ContentRelation::kExact ? 1.0 : similarity;
}

// A removed row of A joined to B tensor `b`.
void move_to(TensorComparison& row, const TensorInfo* b, ContentRelation r, double similarity,
             const std::string& extra = "") {
  set_moved(row, r, similarity);
  row.b = b;
  row.state_b = b->state;
  row.what = "B: " + b->name + " (" + likeness(r, row.similarity) + extra + ")";
}

// The passes that join REMOVED rows of A to NEW rows of B, in order of trust; each leaves what it could not
// join to the next.
class MoveFinder {
 public:
  MoveFinder(const WeightsReport& a, const WeightsReport& b, std::vector<TensorComparison>& rows)
      : sa_(a), sb_(b), rows_(rows), taken_(rows.size(), false) {
    for (std::size_t i = 0; i < rows_.size(); ++i) {
      const auto& row = rows_[i];
      if (row.change == TensorChange::kRemoved && row.a->numel > 0) removed_.push_back(i);
      if (row.change == TensorChange::kNew && row.b->numel > 0) added_.push_back(i);
    }
  }
  bool nothing_to_join() const { return removed_.empty() && added_.empty(); }

  void equal_hashes();
  void similar_content();
  void content_held_elsewhere_in_b();
  void copies_of_kept_tensors();
  void constants_follow_module();
  void drop_taken();

 private:
  bool telling_a(std::size_t i) const { return identifies_content(sa_.of(rows_[i].a)); }
  bool telling_b(std::size_t j) const { return identifies_content(sb_.of(rows_[j].b)); }
  bool still_removed(std::size_t i) const { return rows_[i].change == TensorChange::kRemoved; }
  void pair(std::size_t i, std::size_t j, ContentRelation r, double s) {
    move_to(rows_[i], rows_[j].b, r, s);
    taken_[j] = true;
  }
  static std::vector<const ParamRecord*> pointers(const Side& side) {
    std::vector<const ParamRecord*> all;
    for (const auto& p : side.records) all.push_back(&p);
    return all;
  }

  const Side sa_, sb_;
  std::vector<TensorComparison>& rows_;
  std::vector<std::size_t> removed_, added_;  // row indexes
  std::vector<bool> taken_;                   // B-only rows that became the other end of a MOVED row
};

// 1. Equal hashes, one to one, in A's order.
void MoveFinder::equal_hashes() {
  std::unordered_map<std::string, std::vector<std::size_t>> added_by_hash;
  for (std::size_t j : added_) {
    if (!rows_[j].b->sha256.empty() && telling_b(j)) added_by_hash[rows_[j].b->sha256].push_back(j);
  }
  for (std::size_t i : removed_) {
    if (!telling_a(i)) continue;
    auto it = added_by_hash.find(rows_[i].a->sha256);
    if (it == added_by_hash.end()) continue;
    for (std::size_t j : it->second) {
      if (!taken_[j] && content_relation(sa_.of(rows_[i].a), sb_.of(rows_[j].b)) == ContentRelation::kExact) {
        pair(i, j, ContentRelation::kExact, 1.0);
        break;
      }
    }
  }
}

// 2. Similar content among the rest of one shape: the most similar pairs first, one to one.
void MoveFinder::similar_content() {
  struct Candidate {
    double similarity;
    std::size_t i, j;
    ContentRelation relation;
  };
  std::unordered_map<std::string, std::vector<std::size_t>> added_by_shape;
  for (std::size_t j : added_) {
    if (!taken_[j] && telling_b(j)) added_by_shape[shape_key(rows_[j].b->shape)].push_back(j);
  }
  std::vector<Candidate> candidates;
  for (std::size_t i : removed_) {
    if (!still_removed(i) || !telling_a(i)) continue;
    auto it = added_by_shape.find(shape_key(rows_[i].a->shape));
    if (it == added_by_shape.end()) continue;
    const ParamRecord& ra = sa_.of(rows_[i].a);
    for (std::size_t j : it->second) {
      const ParamRecord& rb = sb_.of(rows_[j].b);
      ContentRelation r = content_relation(ra, rb);
      if (r != ContentRelation::kNone)
        candidates.push_back({sketch_similarity(ra, rb).value_or(1.0), i, j, r});
    }
  }
  std::stable_sort(candidates.begin(), candidates.end(),
                   [](const Candidate& x, const Candidate& y) { return x.similarity > y.similarity; });
  for (const Candidate& c : candidates) {
    if (still_removed(c.i) && !taken_[c.j]) pair(c.i, c.j, c.relation, c.similarity);
  }
}

// 3. Any tensor of B holding a removed tensor's content, though it stands for another A tensor.
void MoveFinder::content_held_elsewhere_in_b() {
  // The A name each B tensor stands for so far (to say so when a second A tensor's content is found there).
  std::unordered_map<const TensorInfo*, std::string> joined;
  for (const auto& row : rows_) {
    if (row.a && row.b) joined.emplace(row.b, row.name);
  }
  const ContentIndex index_b(pointers(sb_));
  for (std::size_t i : removed_) {
    if (!still_removed(i) || !telling_a(i)) continue;
    const auto m = index_b.find(sa_.of(rows_[i].a));
    if (m.relation == ContentRelation::kNone || !identifies_content(*m.tensor)) continue;
    const TensorInfo* t = sb_.tensor(m.tensor);
    auto other = joined.find(t);
    move_to(rows_[i], t, m.relation, m.similarity,
            other == joined.end() ? std::string() : "; B keeps it for A's " + other->second + " too");
  }
}

// 4. A tensor only in B holding the content of a tensor A keeps (an untied copy, a duplicate).
void MoveFinder::copies_of_kept_tensors() {
  const ContentIndex index_a(pointers(sa_));
  for (std::size_t j : added_) {
    if (taken_[j] || !telling_b(j)) continue;
    const auto m = index_a.find(sb_.of(rows_[j].b));
    if (m.relation == ContentRelation::kNone || !identifies_content(*m.tensor)) continue;
    TensorComparison& row = rows_[j];
    set_moved(row, m.relation, m.similarity);
    row.a = sa_.tensor(m.tensor);
    row.what = "A: " + row.a->name + " (" + likeness(m.relation, row.similarity) + ")";
  }
}

// 5. Constant tensors follow their module when all its moved tensors went to one B module.
void MoveFinder::constants_follow_module() {
  std::unordered_map<std::string, std::optional<std::string>> module_moved;  // nullopt: to several modules
  for (std::size_t i : removed_) {
    const auto& row = rows_[i];
    if (row.change != TensorChange::kMoved) continue;
    auto [it, fresh] = module_moved.emplace(module_of(row.a->name), module_of(row.b->name));
    if (!fresh && it->second != module_of(row.b->name)) it->second.reset();
  }
  std::unordered_map<std::string, std::size_t> added_by_name;
  for (std::size_t j : added_) {
    if (!taken_[j] && rows_[j].change == TensorChange::kNew) added_by_name.emplace(rows_[j].b->name, j);
  }
  for (std::size_t i : removed_) {
    auto& row = rows_[i];
    if (row.change != TensorChange::kRemoved) continue;
    auto it = module_moved.find(module_of(row.a->name));
    if (it == module_moved.end() || !it->second) continue;
    const std::string target =
        it->second->empty() ? leaf_of(row.a->name) : *it->second + "." + leaf_of(row.a->name);
    auto jt = added_by_name.find(target);
    if (jt == added_by_name.end() || taken_[jt->second]) continue;
    const ParamRecord &ra = sa_.of(row.a), &rb = sb_.of(rows_[jt->second].b);
    const ContentRelation r = content_relation(ra, rb);
    if (r == ContentRelation::kNone) continue;
    move_to(row, rows_[jt->second].b, r, sketch_similarity(ra, rb).value_or(1.0),
            ", with its module's tensors");
    taken_[jt->second] = true;
  }
}

// The B-only rows now joined to an A row leave the list.
void MoveFinder::drop_taken() {
  std::size_t kept = 0;
  for (std::size_t i = 0; i < rows_.size(); ++i) {
    if (taken_[i]) continue;
    if (kept != i) rows_[kept] = std::move(rows_[i]);
    ++kept;
  }
  rows_.resize(kept);
}

}  // namespace

void find_moved_tensors(const WeightsReport& a, const WeightsReport& b, std::vector<TensorComparison>& rows) {
  MoveFinder f(a, b, rows);
  if (f.nothing_to_join()) return;
  f.equal_hashes();
  f.similar_content();
  f.content_held_elsewhere_in_b();
  f.copies_of_kept_tensors();
  f.constants_follow_module();
  f.drop_taken();
}

}  // namespace flopscope
