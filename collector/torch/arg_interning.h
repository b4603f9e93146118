// LibTorch-only header (op_observer.cpp): per-thread interning of what the op observer records for each op,
// so the hot path neither allocates nor formats text. An op's arguments become a key of machine words that
// holds everything the recorded OpArgs are made from (kinds, dtypes, shapes, scalar values); arguments with
// an equal key share one recorded list, built once by the same code that built every op's list before.
#pragma once

#include <ATen/core/ivalue.h>

#include <cstdint>
#include <functional>
#include <vector>

#include "db/model/records.h"

namespace flopscope {

// The OpArg of one argument value (the exact path; also what interning stores on a miss).
OpArg to_arg(const c10::IValue& v);

// Appends a key of `inputs` to `key`; false when some value is of a kind the key does not describe (complex
// or symbolic scalars), whose ops then take the exact path.
bool encode_args(c10::ArrayRef<const c10::IValue> inputs, std::vector<std::uint64_t>& key);

// Argument lists by key, one table per thread; ids index `lists`.
class ArgListTable {
 public:
  // The id of the list for `inputs`, built with to_arg the first time its key is seen.
  std::int32_t intern(c10::ArrayRef<const c10::IValue> inputs);
  // A list built with to_arg, not interned (the exact path).
  std::int32_t add(c10::ArrayRef<const c10::IValue> inputs);
  const std::vector<OpArg>& list(std::int32_t id) const { return lists_[static_cast<std::size_t>(id)]; }

 private:
  struct Entry {
    std::uint64_t hash;
    std::uint32_t offset;  // into words_
    std::uint32_t size;
    std::int32_t id;
  };
  void grow();

  std::vector<std::vector<OpArg>> lists_;
  std::vector<Entry> entries_;
  std::vector<std::int32_t> slots_;  // open addressing into entries_, -1 empty; size a power of two
  std::vector<std::uint64_t> words_;
  std::vector<std::uint64_t> scratch_;
};

}  // namespace flopscope
