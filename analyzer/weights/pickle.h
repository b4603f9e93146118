// A small pickle interpreter for the streams torch.save and torch.jit.save write (protocol 2): it builds
// plain values, never runs code. Calls of globals become Call values (name + args) and objects keep their
// class name and BUILD state, so a caller can recognise tensor rebuild functions and walk module objects.
// Values live in one arena owned by the result: a hostile stream can build cycles or million-deep nesting
// without leaking or overflowing the stack on destruction.
#pragma once

#include <cstdint>
#include <deque>
#include <memory>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "db/model/status.h"

namespace flopscope {

struct PyValue;
using PyRef = PyValue*;

struct PyValue {
  enum class Kind {
    kNone,
    kBool,
    kInt,
    kFloat,
    kString,
    kBytes,
    kTuple,
    kList,
    kDict,
    kGlobal,
    kCall,
    kPersistent
  };
  Kind kind = Kind::kNone;
  bool b = false;
  std::int64_t i = 0;
  double f = 0;
  std::string s;                              // string, bytes, global "module.name", call target
  std::vector<PyRef> items;                   // tuple, list, call args, persistent id (the pid tuple)
  std::vector<std::pair<PyRef, PyRef>> dict;  // dict entries in insertion order
  PyRef state = nullptr;                      // BUILD state of a call/object

  bool is(Kind k) const { return kind == k; }
};

struct Unpickled {
  std::unique_ptr<std::deque<PyValue>> arena;  // owns every value
  PyRef root = nullptr;
};

// Runs the stream to STOP and returns the top value. Errors are Corrupt/Unsupported prefixed with `name`.
StatusOr<Unpickled> unpickle(std::span<const std::uint8_t> bytes, const std::string& name);

}  // namespace flopscope
