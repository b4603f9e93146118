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

}  // namespace

void find_moved_tensors(const WeightsReport& a, const WeightsReport& b, std::vector<TensorComparison>& rows) {
  const Side sa(a), sb(b);
  std::vector<std::size_t> removed, added;  // row indexes
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const auto& row = rows[i];
    if (row.change == TensorChange::kRemoved && row.a->numel > 0) removed.push_back(i);
    if (row.change == TensorChange::kNew && row.b->numel > 0) added.push_back(i);
  }
  if (removed.empty() && added.empty()) return;
  std::vector<bool> taken(rows.size(), false);  // B-only rows that became the other end of a MOVED row
  auto telling_a = [&](std::size_t i) { return identifies_content(sa.of(rows[i].a)); };
  auto telling_b = [&](std::size_t j) { return identifies_content(sb.of(rows[j].b)); };
  auto pair = [&](std::size_t i, std::size_t j, ContentRelation r, double s) {
    move_to(rows[i], rows[j].b, r, s);
    taken[j] = true;
  };

  // 1. Equal hashes, one to one, in A's order.
  std::unordered_map<std::string, std::vector<std::size_t>> added_by_hash;
  for (std::size_t j : added) {
    if (!rows[j].b->sha256.empty() && telling_b(j)) added_by_hash[rows[j].b->sha256].push_back(j);
  }
  for (std::size_t i : removed) {
    if (!telling_a(i)) continue;
    auto it = added_by_hash.find(rows[i].a->sha256);
    if (it == added_by_hash.end()) continue;
    for (std::size_t j : it->second) {
      if (!taken[j] && content_relation(sa.of(rows[i].a), sb.of(rows[j].b)) == ContentRelation::kExact) {
        pair(i, j, ContentRelation::kExact, 1.0);
        break;
      }
    }
  }

  // 2. Similar content among the rest of one shape: the most similar pairs first, one to one.
  struct Candidate {
    double similarity;
    std::size_t i, j;
    ContentRelation relation;
  };
  std::unordered_map<std::string, std::vector<std::size_t>> added_by_shape;
  for (std::size_t j : added) {
    if (!taken[j] && telling_b(j)) added_by_shape[shape_key(rows[j].b->shape)].push_back(j);
  }
  std::vector<Candidate> candidates;
  for (std::size_t i : removed) {
    if (rows[i].change != TensorChange::kRemoved || !telling_a(i)) continue;
    auto it = added_by_shape.find(shape_key(rows[i].a->shape));
    if (it == added_by_shape.end()) continue;
    const ParamRecord& ra = sa.of(rows[i].a);
    for (std::size_t j : it->second) {
      const ParamRecord& rb = sb.of(rows[j].b);
      ContentRelation r = content_relation(ra, rb);
      if (r != ContentRelation::kNone)
        candidates.push_back({sketch_similarity(ra, rb).value_or(1.0), i, j, r});
    }
  }
  std::stable_sort(candidates.begin(), candidates.end(),
                   [](const Candidate& x, const Candidate& y) { return x.similarity > y.similarity; });
  for (const Candidate& c : candidates) {
    if (rows[c.i].change == TensorChange::kRemoved && !taken[c.j]) pair(c.i, c.j, c.relation, c.similarity);
  }

  // The A name each B tensor stands for so far (to say so when a second A tensor's content is found there).
  std::unordered_map<const TensorInfo*, std::string> joined;
  for (const auto& row : rows) {
    if (row.a && row.b) joined.emplace(row.b, row.name);
  }

  // 3. Any tensor of B holding a removed tensor's content, though it stands for another A tensor.
  std::vector<const ParamRecord*> all_b, all_a;
  for (const auto& p : sb.records) all_b.push_back(&p);
  for (const auto& p : sa.records) all_a.push_back(&p);
  const ContentIndex index_b(all_b);
  for (std::size_t i : removed) {
    if (rows[i].change != TensorChange::kRemoved || !telling_a(i)) continue;
    const auto m = index_b.find(sa.of(rows[i].a));
    if (m.relation == ContentRelation::kNone || !identifies_content(*m.tensor)) continue;
    const TensorInfo* t = sb.tensor(m.tensor);
    auto other = joined.find(t);
    move_to(rows[i], t, m.relation, m.similarity,
            other == joined.end() ? std::string() : "; B keeps it for A's " + other->second + " too");
  }

  // 4. A tensor only in B holding the content of a tensor A keeps (an untied copy, a duplicate).
  const ContentIndex index_a(all_a);
  for (std::size_t j : added) {
    if (taken[j] || !telling_b(j)) continue;
    const auto m = index_a.find(sb.of(rows[j].b));
    if (m.relation == ContentRelation::kNone || !identifies_content(*m.tensor)) continue;
    TensorComparison& row = rows[j];
    set_moved(row, m.relation, m.similarity);
    row.a = sa.tensor(m.tensor);
    row.what = "A: " + row.a->name + " (" + likeness(m.relation, row.similarity) + ")";
  }

  // 5. Constant tensors follow their module when all its moved tensors went to one B module.
  std::unordered_map<std::string, std::optional<std::string>> module_moved;  // nullopt: to several modules
  for (std::size_t i : removed) {
    const auto& row = rows[i];
    if (row.change != TensorChange::kMoved) continue;
    auto [it, fresh] = module_moved.emplace(module_of(row.a->name), module_of(row.b->name));
    if (!fresh && it->second != module_of(row.b->name)) it->second.reset();
  }
  std::unordered_map<std::string, std::size_t> added_by_name;
  for (std::size_t j : added) {
    if (!taken[j] && rows[j].change == TensorChange::kNew) added_by_name.emplace(rows[j].b->name, j);
  }
  for (std::size_t i : removed) {
    auto& row = rows[i];
    if (row.change != TensorChange::kRemoved) continue;
    auto it = module_moved.find(module_of(row.a->name));
    if (it == module_moved.end() || !it->second) continue;
    const std::string target =
        it->second->empty() ? leaf_of(row.a->name) : *it->second + "." + leaf_of(row.a->name);
    auto jt = added_by_name.find(target);
    if (jt == added_by_name.end() || taken[jt->second]) continue;
    const ParamRecord &ra = sa.of(row.a), &rb = sb.of(rows[jt->second].b);
    const ContentRelation r = content_relation(ra, rb);
    if (r == ContentRelation::kNone) continue;
    move_to(row, rows[jt->second].b, r, sketch_similarity(ra, rb).value_or(1.0),
            ", with its module's tensors");
    taken[jt->second] = true;
  }

  std::size_t kept = 0;
  for (std::size_t i = 0; i < rows.size(); ++i) {
    if (taken[i]) continue;
    if (kept != i) rows[kept] = std::move(rows[i]);
    ++kept;
  }
  rows.resize(kept);
}

}  // namespace flopscope
