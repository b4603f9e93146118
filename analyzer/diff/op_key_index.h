// Rows of a diff keyed by (module path, op name, argument signature) without building a string per row: the
// key is three views into strings that outlive the index, found by open addressing over one flat array.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

namespace flopscope {

struct OpKey {
  std::string_view path, name, signature;
  friend bool operator==(const OpKey&, const OpKey&) = default;
};

class OpKeyIndex {
 public:
  static constexpr std::uint32_t kAbsent = UINT32_MAX;

  // `path_hash`: hash_part(key.path), which callers computing it once per module pass in.
  static std::size_t hash_part(std::string_view s);
  static std::size_t hash(const OpKey& key, std::size_t path_hash);

  explicit OpKeyIndex(std::size_t expected = 0);
  // The row of `key`, or `row` (stored) when the key is new; `inserted` says which.
  std::uint32_t insert(const OpKey& key, std::size_t hash, std::uint32_t row, bool* inserted);
  std::uint32_t find(const OpKey& key, std::size_t hash) const;  // kAbsent when not there
  std::size_t size() const { return size_; }

 private:
  struct Slot {
    std::size_t hash = 0;
    std::uint32_t row = kAbsent;
    OpKey key;
  };
  void grow();

  std::vector<Slot> slots_;  // a power of two in size, at most half full
  std::size_t size_ = 0;
};

}  // namespace flopscope
