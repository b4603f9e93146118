// LibTorch TU: argument keys and the per-thread table of recorded argument lists (arg_interning.h).
#include "collector/torch/arg_interning.h"

#include <cstring>
#include <sstream>

#include "db/model/dtype.h"

namespace flopscope {
namespace {

std::string scalar_text(const c10::IValue& v) {
  if (v.isInt()) return std::to_string(v.toInt());
  if (v.isBool()) return v.toBool() ? "True" : "False";
  if (v.isDouble()) {
    std::ostringstream s;
    s << v.toDouble();
    return s.str();
  }
  if (v.isIntList()) {
    std::string s = "[";
    bool first = true;
    for (auto x : v.toIntList()) {
      s += (first ? "" : ", ") + std::to_string(static_cast<std::int64_t>(x));
      first = false;
    }
    return s + "]";
  }
  if (v.isDoubleList()) {
    std::ostringstream s;
    s << "[";
    bool first = true;
    for (double x : v.toDoubleVector()) {
      s << (first ? "" : ", ") << x;
      first = false;
    }
    s << "]";
    return s.str();
  }
  if (v.isString()) return std::string(v.toStringRef());
  if (v.isDevice()) return v.toDevice().str();
  return "";
}

// Key words: a tag word (kind in the low byte, small fields above), then the kind's payload.
enum Tag : std::uint64_t {
  kUndefinedTensor = 1,
  kTensor,
  kTensorList,
  kInt,
  kDouble,
  kBool,
  kIntList,
  kDoubleList,
  kString,
  kDevice,
  kOther,  // every other kind records an empty OpArg
};

std::uint64_t tag(Tag t, std::uint64_t field = 0) {
  return static_cast<std::uint64_t>(t) | (field << 8);
}

void encode_tensor(const at::Tensor& t, std::vector<std::uint64_t>& key) {
  if (!t.defined()) {
    key.push_back(tag(kUndefinedTensor));
    return;
  }
  auto sizes = t.sizes();
  key.push_back(tag(kTensor, static_cast<std::uint64_t>(t.scalar_type()) | (sizes.size() << 8)));
  for (std::int64_t s : sizes) key.push_back(static_cast<std::uint64_t>(s));
}

std::uint64_t double_bits(double d) {
  std::uint64_t u;
  std::memcpy(&u, &d, sizeof u);
  return u;
}

std::uint64_t hash_words(const std::uint64_t* w, std::size_t n) {
  std::uint64_t h = 0x9E3779B97F4A7C15ull ^ n;
  for (std::size_t i = 0; i < n; ++i) {
    h ^= w[i];
    h *= 0xBF58476D1CE4E5B9ull;
    h ^= h >> 31;
  }
  return h;
}

}  // namespace

OpArg to_arg(const c10::IValue& v) {
  OpArg a;
  if (v.isTensor()) {
    const at::Tensor& t = v.toTensor();
    if (t.defined()) {
      a.is_tensor = true;
      a.dtype = normalize_dtype(c10::toString(t.scalar_type()));
      a.shape.assign(t.sizes().begin(), t.sizes().end());
    }
    return a;
  }
  if (v.isTensorList()) {
    // Tensor[] (cat, stack, einsum operands): nested shapes and the element type, as Kineto records them.
    a.value = "[";
    bool first = true;
    for (const at::Tensor& t : v.toTensorList().vec()) {
      if (!t.defined()) continue;
      if (a.dtype.empty()) a.dtype = normalize_dtype(c10::toString(t.scalar_type()));
      a.value += first ? "[" : ", [";
      first = false;
      for (std::size_t d = 0; d < static_cast<std::size_t>(t.dim()); ++d) {
        a.value += (d ? ", " : "") + std::to_string(t.size(static_cast<std::int64_t>(d)));
      }
      a.value += "]";
    }
    a.value += "]";
    return a;
  }
  if (v.isScalar()) a.dtype = v.isDouble() ? "Scalar" : v.isBool() ? "bool" : "int";
  a.value = scalar_text(v);
  return a;
}

// Mirrors to_arg: each branch keys exactly the facts that branch reads. An IValue has one kind, so the
// order only matters for speed: the kinds told by the inline tag first, lists (out-of-line type checks) last.
bool encode_args(c10::ArrayRef<const c10::IValue> inputs, std::vector<std::uint64_t>& key) {
  key.push_back(inputs.size());
  for (const c10::IValue& v : inputs) {
    if (v.isTensor()) {
      encode_tensor(v.toTensor(), key);
    } else if (v.isInt()) {
      key.push_back(tag(kInt));
      key.push_back(static_cast<std::uint64_t>(v.toInt()));
    } else if (v.isDouble()) {
      key.push_back(tag(kDouble));
      key.push_back(double_bits(v.toDouble()));
    } else if (v.isBool()) {
      key.push_back(tag(kBool, v.toBool() ? 1 : 0));
    } else if (v.isNone()) {
      key.push_back(tag(kOther));
    } else if (v.isScalar()) {
      return false;  // complex or symbolic
    } else if (v.isTensorList()) {
      auto elements = v.toListRef();
      key.push_back(tag(kTensorList, elements.size()));
      for (const c10::IValue& e : elements) {
        if (!e.isTensor()) return false;
        encode_tensor(e.toTensor(), key);
      }
    } else if (v.isIntList() || v.isDoubleList()) {
      const bool ints = v.isIntList();
      auto elements = v.toListRef();
      key.push_back(tag(ints ? kIntList : kDoubleList, elements.size()));
      for (const c10::IValue& e : elements) {
        if (ints ? !e.isInt() : !e.isDouble()) return false;
        key.push_back(ints ? static_cast<std::uint64_t>(e.toInt()) : double_bits(e.toDouble()));
      }
    } else if (v.isString()) {
      const std::string& s = v.toStringRef();
      key.push_back(tag(kString, s.size()));
      for (std::size_t i = 0; i < s.size(); i += 8) {
        std::uint64_t w = 0;
        std::memcpy(&w, s.data() + i, std::min<std::size_t>(8, s.size() - i));
        key.push_back(w);
      }
    } else if (v.isDevice()) {
      c10::Device d = v.toDevice();
      key.push_back(
          tag(kDevice, static_cast<std::uint64_t>(static_cast<std::uint8_t>(d.type())) |
                           (static_cast<std::uint64_t>(static_cast<std::uint8_t>(d.index())) << 8)));
    } else {
      key.push_back(tag(kOther));
    }
  }
  return true;
}

std::int32_t ArgListTable::add(c10::ArrayRef<const c10::IValue> inputs) {
  std::vector<OpArg> args;
  args.reserve(inputs.size());
  for (const auto& v : inputs) args.push_back(to_arg(v));
  lists_.push_back(std::move(args));
  return static_cast<std::int32_t>(lists_.size() - 1);
}

std::int32_t ArgListTable::intern(c10::ArrayRef<const c10::IValue> inputs) {
  scratch_.clear();
  if (!encode_args(inputs, scratch_)) return add(inputs);
  const std::uint64_t h = hash_words(scratch_.data(), scratch_.size());
  if (slots_.empty()) slots_.assign(1024, -1);
  std::size_t mask = slots_.size() - 1;
  std::size_t i = h & mask;
  for (; slots_[i] >= 0; i = (i + 1) & mask) {
    const Entry& e = entries_[static_cast<std::size_t>(slots_[i])];
    if (e.hash == h && e.size == scratch_.size() &&
        std::memcmp(&words_[e.offset], scratch_.data(), scratch_.size() * sizeof(std::uint64_t)) == 0)
      return e.id;
  }
  std::int32_t id = add(inputs);
  slots_[i] = static_cast<std::int32_t>(entries_.size());
  entries_.push_back(
      {h, static_cast<std::uint32_t>(words_.size()), static_cast<std::uint32_t>(scratch_.size()), id});
  words_.insert(words_.end(), scratch_.begin(), scratch_.end());
  if (entries_.size() * 2 > slots_.size()) grow();
  return id;
}

void ArgListTable::grow() {
  slots_.assign(slots_.size() * 2, -1);
  std::size_t mask = slots_.size() - 1;
  for (std::size_t k = 0; k < entries_.size(); ++k) {
    std::size_t i = entries_[k].hash & mask;
    while (slots_[i] >= 0) i = (i + 1) & mask;
    slots_[i] = static_cast<std::int32_t>(k);
  }
}

}  // namespace flopscope
