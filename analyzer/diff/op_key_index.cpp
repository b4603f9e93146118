#include "analyzer/diff/op_key_index.h"

#include <functional>
#include <utility>

namespace flopscope {

std::size_t OpKeyIndex::hash_part(std::string_view s) {
  return std::hash<std::string_view>{}(s);
}

std::size_t OpKeyIndex::hash(const OpKey& key, std::size_t path_hash) {
  // Combined so that moving text from one part to the next gives another hash.
  std::size_t h = path_hash;
  for (std::string_view part : {key.name, key.signature}) {
    h ^= hash_part(part) + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2);
  }
  return h;
}

OpKeyIndex::OpKeyIndex(std::size_t expected) {
  std::size_t n = 16;
  while (n < 2 * expected) n *= 2;
  slots_.resize(n);
}

std::uint32_t OpKeyIndex::insert(const OpKey& key, std::size_t hash, std::uint32_t row, bool* inserted) {
  if (2 * (size_ + 1) > slots_.size()) grow();
  const std::size_t mask = slots_.size() - 1;
  for (std::size_t i = hash & mask;; i = (i + 1) & mask) {
    Slot& s = slots_[i];
    if (s.row == kAbsent) {
      s = {hash, row, key};
      ++size_;
      *inserted = true;
      return row;
    }
    if (s.hash == hash && s.key == key) {
      *inserted = false;
      return s.row;
    }
  }
}

std::uint32_t OpKeyIndex::find(const OpKey& key, std::size_t hash) const {
  const std::size_t mask = slots_.size() - 1;
  for (std::size_t i = hash & mask;; i = (i + 1) & mask) {
    const Slot& s = slots_[i];
    if (s.row == kAbsent) return kAbsent;
    if (s.hash == hash && s.key == key) return s.row;
  }
}

void OpKeyIndex::grow() {
  std::vector<Slot> old = std::exchange(slots_, std::vector<Slot>(slots_.size() * 2));
  const std::size_t mask = slots_.size() - 1;
  for (const Slot& s : old) {
    if (s.row == kAbsent) continue;
    std::size_t i = s.hash & mask;
    while (slots_[i].row != kAbsent) i = (i + 1) & mask;
    slots_[i] = s;
  }
}

}  // namespace flopscope
