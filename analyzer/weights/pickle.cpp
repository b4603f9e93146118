#include "analyzer/weights/pickle.h"

#include <cstring>
#include <memory>
#include <unordered_map>

namespace flopscope {
namespace {

constexpr std::size_t kMaxDepthItems = 1 << 26;  // guards against absurd MARK/stack growth

class Machine {
 public:
  Machine(std::span<const std::uint8_t> b, const std::string& name)
      : b_(b), name_(name), arena_(std::make_unique<std::deque<PyValue>>()) {}

  StatusOr<Unpickled> run() {
    while (true) {
      if (pos_ >= b_.size()) return fail("stream ends before STOP");
      std::uint8_t op = b_[pos_++];
      Status st = step(op);
      if (!st.ok()) return st;
      if (stopped_) {
        if (stack_.empty()) return fail("STOP with an empty stack");
        return Unpickled{std::move(arena_), stack_.back()};
      }
      if (stack_.size() > kMaxDepthItems) return fail("stack grows without bound");
    }
  }

 private:
  PyRef make(PyValue::Kind k) {
    arena_->emplace_back();
    arena_->back().kind = k;
    return &arena_->back();
  }
  Status fail(const std::string& what) const {
    return Corrupt(name_ + ": bad pickle at byte " + std::to_string(pos_) + ": " + what);
  }
  bool need(std::size_t n) const { return n <= b_.size() - pos_; }
  std::uint64_t le(int n) {
    std::uint64_t v = 0;
    for (int i = n - 1; i >= 0; --i) v = (v << 8) | b_[pos_ + static_cast<std::size_t>(i)];
    pos_ += static_cast<std::size_t>(n);
    return v;
  }
  Status read_line(std::string* out) {
    auto start = pos_;
    while (pos_ < b_.size() && b_[pos_] != '\n') ++pos_;
    if (pos_ >= b_.size()) return fail("unterminated line");
    out->assign(reinterpret_cast<const char*>(b_.data() + start), pos_ - start);
    ++pos_;
    return Status::Ok();
  }
  Status read_bytes(std::uint64_t n, std::string* out) {
    if (!need(n)) return fail("string of " + std::to_string(n) + " bytes runs past the end");
    out->assign(reinterpret_cast<const char*>(b_.data() + pos_), static_cast<std::size_t>(n));
    pos_ += static_cast<std::size_t>(n);
    return Status::Ok();
  }
  Status pop(PyRef* out) {
    if (stack_.size() <= mark_floor()) return fail("pop from an empty stack");
    *out = stack_.back();
    stack_.pop_back();
    return Status::Ok();
  }
  std::size_t mark_floor() const { return marks_.empty() ? 0 : marks_.back(); }
  Status pop_mark(std::vector<PyRef>* items) {
    if (marks_.empty()) return fail("no MARK");
    std::size_t m = marks_.back();
    marks_.pop_back();
    items->assign(std::make_move_iterator(stack_.begin() + static_cast<std::ptrdiff_t>(m)),
                  std::make_move_iterator(stack_.end()));
    stack_.resize(m);
    return Status::Ok();
  }
  Status top(PyRef** out) {
    if (stack_.size() <= mark_floor()) return fail("empty stack");
    *out = &stack_.back();
    return Status::Ok();
  }
  void push(PyRef v) { stack_.push_back(v); }
  PyRef str(PyValue::Kind k, std::string s) {
    auto v = make(k);
    v->s = std::move(s);
    return v;
  }
  PyRef integer(std::int64_t i) {
    auto v = make(PyValue::Kind::kInt);
    v->i = i;
    return v;
  }
  Status tuple_of(std::size_t n) {
    if (stack_.size() < mark_floor() + n) return fail("tuple needs more items than the stack holds");
    auto t = make(PyValue::Kind::kTuple);
    t->items.assign(stack_.end() - static_cast<std::ptrdiff_t>(n), stack_.end());
    stack_.resize(stack_.size() - n);
    push(t);
    return Status::Ok();
  }
  Status set_items(PyValue& d, std::vector<PyRef>& items) {
    if (items.size() % 2 != 0) return fail("odd number of items for a dict");
    if (d.kind == PyValue::Kind::kCall) d.kind = PyValue::Kind::kDict;  // OrderedDict() and friends
    if (d.kind != PyValue::Kind::kDict) return fail("SETITEM(S) on something that is not a dict");
    for (std::size_t i = 0; i < items.size(); i += 2) d.dict.emplace_back(items[i], items[i + 1]);
    return Status::Ok();
  }

  Status step(std::uint8_t op);

  std::span<const std::uint8_t> b_;
  const std::string& name_;
  std::size_t pos_ = 0;
  std::vector<PyRef> stack_;
  std::vector<std::size_t> marks_;
  std::unordered_map<std::uint64_t, PyRef> memo_;
  std::unique_ptr<std::deque<PyValue>> arena_;
  bool stopped_ = false;
};

Status Machine::step(std::uint8_t op) {
  using K = PyValue::Kind;
  switch (op) {
    case 0x80:  // PROTO
      if (!need(1)) return fail("truncated PROTO");
      if (b_[pos_] > 5)
        return Unsupported(name_ + ": pickle protocol " + std::to_string(b_[pos_]) + " is not supported");
      ++pos_;
      return Status::Ok();
    case 0x95:  // FRAME
      if (!need(8)) return fail("truncated FRAME");
      pos_ += 8;
      return Status::Ok();
    case '.':
      stopped_ = true;
      return Status::Ok();
    case '(':
      marks_.push_back(stack_.size());
      return Status::Ok();
    case 'N':
      push(make(K::kNone));
      return Status::Ok();
    case 0x88:
    case 0x89: {
      auto v = make(K::kBool);
      v->b = op == 0x88;
      push(v);
      return Status::Ok();
    }
    case 'J':
      if (!need(4)) return fail("truncated BININT");
      push(integer(static_cast<std::int32_t>(le(4))));
      return Status::Ok();
    case 'K':
      if (!need(1)) return fail("truncated BININT1");
      push(integer(static_cast<std::int64_t>(le(1))));
      return Status::Ok();
    case 'M':
      if (!need(2)) return fail("truncated BININT2");
      push(integer(static_cast<std::int64_t>(le(2))));
      return Status::Ok();
    case 0x8a: {  // LONG1: n bytes, two's complement little-endian
      if (!need(1)) return fail("truncated LONG1");
      std::size_t n = b_[pos_++];
      if (!need(n)) return fail("truncated LONG1");
      if (n > 8) return Unsupported(name_ + ": integer wider than 64 bits in pickle");
      std::uint64_t v = n == 0 ? 0 : le(static_cast<int>(n));
      if (n > 0 && n < 8 && (v >> (8 * n - 1)) != 0) v |= ~std::uint64_t{0} << (8 * n);
      push(integer(static_cast<std::int64_t>(v)));
      return Status::Ok();
    }
    case 'I': {  // INT (text)
      std::string line;
      FS_RETURN_IF_ERROR(read_line(&line));
      if (line == "01" || line == "00") {
        auto v = make(K::kBool);
        v->b = line == "01";
        push(v);
      } else {
        push(integer(std::strtoll(line.c_str(), nullptr, 10)));
      }
      return Status::Ok();
    }
    case 'G': {  // BINFLOAT, big-endian
      if (!need(8)) return fail("truncated BINFLOAT");
      std::uint64_t bits = 0;
      for (int i = 0; i < 8; ++i) bits = (bits << 8) | b_[pos_++];
      auto v = make(K::kFloat);
      std::memcpy(&v->f, &bits, 8);
      push(v);
      return Status::Ok();
    }
    case 'X':
    case 0x8c:
    case 'T':
    case 'U':
    case 'B':
    case 'C':
    case 0x8d:
    case 0x8e: {
      int width = (op == 0x8c || op == 'U' || op == 'C') ? 1 : (op == 0x8d || op == 0x8e) ? 8 : 4;
      if (!need(static_cast<std::size_t>(width))) return fail("truncated string length");
      std::uint64_t n = le(width);
      std::string s;
      FS_RETURN_IF_ERROR(read_bytes(n, &s));
      bool bytes = op == 'B' || op == 'C' || op == 0x8e;
      push(str(bytes ? K::kBytes : K::kString, std::move(s)));
      return Status::Ok();
    }
    case ')':
      push(make(K::kTuple));
      return Status::Ok();
    case ']':
      push(make(K::kList));
      return Status::Ok();
    case '}':
      push(make(K::kDict));
      return Status::Ok();
    case 0x85:
      return tuple_of(1);
    case 0x86:
      return tuple_of(2);
    case 0x87:
      return tuple_of(3);
    case 't': {
      auto t = make(K::kTuple);
      FS_RETURN_IF_ERROR(pop_mark(&t->items));
      push(t);
      return Status::Ok();
    }
    case 'l': {
      auto t = make(K::kList);
      FS_RETURN_IF_ERROR(pop_mark(&t->items));
      push(t);
      return Status::Ok();
    }
    case 'd': {
      auto t = make(K::kDict);
      std::vector<PyRef> items;
      FS_RETURN_IF_ERROR(pop_mark(&items));
      FS_RETURN_IF_ERROR(set_items(*t, items));
      push(t);
      return Status::Ok();
    }
    case 'a': {
      PyRef v;
      FS_RETURN_IF_ERROR(pop(&v));
      PyRef* list = nullptr;
      FS_RETURN_IF_ERROR(top(&list));
      (*list)->items.push_back(v);
      return Status::Ok();
    }
    case 'e': {
      std::vector<PyRef> items;
      FS_RETURN_IF_ERROR(pop_mark(&items));
      PyRef* list = nullptr;
      FS_RETURN_IF_ERROR(top(&list));
      for (auto* v : items) (*list)->items.push_back(v);
      return Status::Ok();
    }
    case 's': {
      PyRef v, k;
      FS_RETURN_IF_ERROR(pop(&v));
      FS_RETURN_IF_ERROR(pop(&k));
      PyRef* d = nullptr;
      FS_RETURN_IF_ERROR(top(&d));
      std::vector<PyRef> items{k, v};
      return set_items(**d, items);
    }
    case 'u': {
      std::vector<PyRef> items;
      FS_RETURN_IF_ERROR(pop_mark(&items));
      PyRef* d = nullptr;
      FS_RETURN_IF_ERROR(top(&d));
      return set_items(**d, items);
    }
    case 'c': {  // GLOBAL "module\nname\n"
      std::string module, qual;
      FS_RETURN_IF_ERROR(read_line(&module));
      FS_RETURN_IF_ERROR(read_line(&qual));
      push(str(K::kGlobal, module + "." + qual));
      return Status::Ok();
    }
    case 0x93: {  // STACK_GLOBAL
      PyRef qual, module;
      FS_RETURN_IF_ERROR(pop(&qual));
      FS_RETURN_IF_ERROR(pop(&module));
      push(str(K::kGlobal, module->s + "." + qual->s));
      return Status::Ok();
    }
    case 'R':     // REDUCE: callable(*args)
    case 0x81: {  // NEWOBJ: cls.__new__(cls, *args)
      PyRef args, fn;
      FS_RETURN_IF_ERROR(pop(&args));
      FS_RETURN_IF_ERROR(pop(&fn));
      if (!fn->is(K::kGlobal)) return fail("call of something that is not a global");
      if (!args->is(K::kTuple)) return fail("call arguments are not a tuple");
      auto call = str(K::kCall, fn->s);
      call->items = args->items;
      push(call);
      return Status::Ok();
    }
    case 'b': {  // BUILD: obj.__setstate__(state)
      PyRef state;
      FS_RETURN_IF_ERROR(pop(&state));
      PyRef* obj = nullptr;
      FS_RETURN_IF_ERROR(top(&obj));
      (*obj)->state = state;
      return Status::Ok();
    }
    case 'Q': {  // BINPERSID
      PyRef pid;
      FS_RETURN_IF_ERROR(pop(&pid));
      auto v = make(K::kPersistent);
      v->items = pid->is(K::kTuple) ? pid->items : std::vector<PyRef>{pid};
      push(v);
      return Status::Ok();
    }
    case 'q':
    case 'r': {
      int width = op == 'q' ? 1 : 4;
      if (!need(static_cast<std::size_t>(width))) return fail("truncated PUT");
      std::uint64_t key = le(width);
      PyRef* v = nullptr;
      FS_RETURN_IF_ERROR(top(&v));
      memo_[key] = *v;
      return Status::Ok();
    }
    case 0x94: {  // MEMOIZE
      PyRef* v = nullptr;
      FS_RETURN_IF_ERROR(top(&v));
      memo_[memo_.size()] = *v;
      return Status::Ok();
    }
    case 'h':
    case 'j': {
      int width = op == 'h' ? 1 : 4;
      if (!need(static_cast<std::size_t>(width))) return fail("truncated GET");
      auto it = memo_.find(le(width));
      if (it == memo_.end()) return fail("GET of a memo entry that was never PUT");
      push(it->second);
      return Status::Ok();
    }
    case '0': {
      PyRef v;
      return pop(&v);
    }
    case '1': {
      std::vector<PyRef> items;
      return pop_mark(&items);
    }
    case '2': {
      PyRef* v = nullptr;
      FS_RETURN_IF_ERROR(top(&v));
      push(*v);
      return Status::Ok();
    }
    default: {
      char hex[8];
      std::snprintf(hex, sizeof hex, "0x%02x", op);
      return Unsupported(name_ + ": pickle opcode " + hex + " at byte " + std::to_string(pos_ - 1) +
                         " is not supported");
    }
  }
}

}  // namespace

StatusOr<Unpickled> unpickle(std::span<const std::uint8_t> bytes, const std::string& name) {
  Machine m(bytes, name);
  return m.run();
}

}  // namespace flopscope
