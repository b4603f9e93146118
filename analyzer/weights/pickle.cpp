#include "analyzer/weights/pickle.h"

#include <array>
#include <cstdio>
#include <cstring>
#include <initializer_list>
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

  // One handler per opcode family; step() looks the opcode up in a table of them.
  using Handler = Status (Machine::*)(std::uint8_t op);
  static const std::array<Handler, 256>& handlers();
  Status step(std::uint8_t op);
  Status unsupported(std::uint8_t op) const;

  Status op_proto(std::uint8_t op);
  Status op_frame(std::uint8_t op);
  Status op_stop(std::uint8_t op);
  Status op_mark(std::uint8_t op);
  Status op_none(std::uint8_t op);
  Status op_bool(std::uint8_t op);
  Status op_binint(std::uint8_t op);
  Status op_long1(std::uint8_t op);
  Status op_text_int(std::uint8_t op);
  Status op_binfloat(std::uint8_t op);
  Status op_string(std::uint8_t op);
  Status op_empty(std::uint8_t op);
  Status op_tuple_n(std::uint8_t op);
  Status op_from_mark(std::uint8_t op);
  Status op_append(std::uint8_t op);
  Status op_appends(std::uint8_t op);
  Status op_setitem(std::uint8_t op);
  Status op_setitems(std::uint8_t op);
  Status op_global(std::uint8_t op);
  Status op_stack_global(std::uint8_t op);
  Status op_call(std::uint8_t op);
  Status op_build(std::uint8_t op);
  Status op_persid(std::uint8_t op);
  Status op_put(std::uint8_t op);
  Status op_memoize(std::uint8_t op);
  Status op_get(std::uint8_t op);
  Status op_pop(std::uint8_t op);
  Status op_pop_mark(std::uint8_t op);
  Status op_dup(std::uint8_t op);

  std::span<const std::uint8_t> b_;
  const std::string& name_;
  std::size_t pos_ = 0;
  std::vector<PyRef> stack_;
  std::vector<std::size_t> marks_;
  std::unordered_map<std::uint64_t, PyRef> memo_;
  std::unique_ptr<std::deque<PyValue>> arena_;
  bool stopped_ = false;
};

const std::array<Machine::Handler, 256>& Machine::handlers() {
  static const std::array<Handler, 256> table = [] {
    std::array<Handler, 256> t{};
    auto set = [&t](std::initializer_list<int> ops, Handler h) {
      for (int op : ops) t[static_cast<std::size_t>(op)] = h;
    };
    set({0x80}, &Machine::op_proto);
    set({0x95}, &Machine::op_frame);
    set({'.'}, &Machine::op_stop);
    set({'('}, &Machine::op_mark);
    set({'N'}, &Machine::op_none);
    set({0x88, 0x89}, &Machine::op_bool);
    set({'J', 'K', 'M'}, &Machine::op_binint);
    set({0x8a}, &Machine::op_long1);
    set({'I'}, &Machine::op_text_int);
    set({'G'}, &Machine::op_binfloat);
    set({'X', 0x8c, 'T', 'U', 'B', 'C', 0x8d, 0x8e}, &Machine::op_string);
    set({')', ']', '}'}, &Machine::op_empty);
    set({0x85, 0x86, 0x87}, &Machine::op_tuple_n);
    set({'t', 'l', 'd'}, &Machine::op_from_mark);
    set({'a'}, &Machine::op_append);
    set({'e'}, &Machine::op_appends);
    set({'s'}, &Machine::op_setitem);
    set({'u'}, &Machine::op_setitems);
    set({'c'}, &Machine::op_global);
    set({0x93}, &Machine::op_stack_global);
    set({'R', 0x81}, &Machine::op_call);
    set({'b'}, &Machine::op_build);
    set({'Q'}, &Machine::op_persid);
    set({'q', 'r'}, &Machine::op_put);
    set({0x94}, &Machine::op_memoize);
    set({'h', 'j'}, &Machine::op_get);
    set({'0'}, &Machine::op_pop);
    set({'1'}, &Machine::op_pop_mark);
    set({'2'}, &Machine::op_dup);
    return t;
  }();
  return table;
}

Status Machine::step(std::uint8_t op) {
  Handler h = handlers()[op];
  return h ? (this->*h)(op) : unsupported(op);
}

Status Machine::unsupported(std::uint8_t op) const {
  char hex[8];
  std::snprintf(hex, sizeof hex, "0x%02x", op);
  return Unsupported(name_ + ": pickle opcode " + hex + " at byte " + std::to_string(pos_ - 1) +
                     " is not supported");
}

Status Machine::op_proto(std::uint8_t) {
  if (!need(1)) return fail("truncated PROTO");
  if (b_[pos_] > 5)
    return Unsupported(name_ + ": pickle protocol " + std::to_string(b_[pos_]) + " is not supported");
  ++pos_;
  return Status::Ok();
}

Status Machine::op_frame(std::uint8_t) {
  if (!need(8)) return fail("truncated FRAME");
  pos_ += 8;
  return Status::Ok();
}

Status Machine::op_stop(std::uint8_t) {
  stopped_ = true;
  return Status::Ok();
}

Status Machine::op_mark(std::uint8_t) {
  marks_.push_back(stack_.size());
  return Status::Ok();
}

Status Machine::op_none(std::uint8_t) {
  push(make(PyValue::Kind::kNone));
  return Status::Ok();
}

Status Machine::op_bool(std::uint8_t op) {  // NEWTRUE 0x88, NEWFALSE 0x89
  auto v = make(PyValue::Kind::kBool);
  v->b = op == 0x88;
  push(v);
  return Status::Ok();
}

Status Machine::op_binint(std::uint8_t op) {  // BININT (signed 4 bytes), BININT1, BININT2 (unsigned)
  if (op == 'J') {
    if (!need(4)) return fail("truncated BININT");
    push(integer(static_cast<std::int32_t>(le(4))));
    return Status::Ok();
  }
  int width = op == 'K' ? 1 : 2;
  if (!need(static_cast<std::size_t>(width)))
    return fail(op == 'K' ? "truncated BININT1" : "truncated BININT2");
  push(integer(static_cast<std::int64_t>(le(width))));
  return Status::Ok();
}

Status Machine::op_long1(std::uint8_t) {  // n bytes, two's complement little-endian
  if (!need(1)) return fail("truncated LONG1");
  std::size_t n = b_[pos_++];
  if (!need(n)) return fail("truncated LONG1");
  if (n > 8) return Unsupported(name_ + ": integer wider than 64 bits in pickle");
  std::uint64_t v = n == 0 ? 0 : le(static_cast<int>(n));
  if (n > 0 && n < 8 && (v >> (8 * n - 1)) != 0) v |= ~std::uint64_t{0} << (8 * n);
  push(integer(static_cast<std::int64_t>(v)));
  return Status::Ok();
}

Status Machine::op_text_int(std::uint8_t) {  // INT; protocol 0 writes booleans as "01" and "00"
  std::string line;
  FS_RETURN_IF_ERROR(read_line(&line));
  if (line == "01" || line == "00") {
    auto v = make(PyValue::Kind::kBool);
    v->b = line == "01";
    push(v);
  } else {
    push(integer(std::strtoll(line.c_str(), nullptr, 10)));
  }
  return Status::Ok();
}

Status Machine::op_binfloat(std::uint8_t) {  // big-endian, unlike every other binary field
  if (!need(8)) return fail("truncated BINFLOAT");
  std::uint64_t bits = 0;
  for (int i = 0; i < 8; ++i) bits = (bits << 8) | b_[pos_++];
  auto v = make(PyValue::Kind::kFloat);
  std::memcpy(&v->f, &bits, 8);
  push(v);
  return Status::Ok();
}

Status Machine::op_string(std::uint8_t op) {  // str and bytes with a 1-, 4- or 8-byte length
  int width = (op == 0x8c || op == 'U' || op == 'C') ? 1 : (op == 0x8d || op == 0x8e) ? 8 : 4;
  if (!need(static_cast<std::size_t>(width))) return fail("truncated string length");
  std::uint64_t n = le(width);
  std::string s;
  FS_RETURN_IF_ERROR(read_bytes(n, &s));
  bool bytes = op == 'B' || op == 'C' || op == 0x8e;
  push(str(bytes ? PyValue::Kind::kBytes : PyValue::Kind::kString, std::move(s)));
  return Status::Ok();
}

Status Machine::op_empty(std::uint8_t op) {  // EMPTY_TUPLE, EMPTY_LIST, EMPTY_DICT
  using K = PyValue::Kind;
  push(make(op == ')' ? K::kTuple : op == ']' ? K::kList : K::kDict));
  return Status::Ok();
}

Status Machine::op_tuple_n(std::uint8_t op) {
  return tuple_of(static_cast<std::size_t>(op - 0x84));
}  // TUPLE1..3

Status Machine::op_from_mark(std::uint8_t op) {  // TUPLE, LIST, DICT of the items above the last MARK
  using K = PyValue::Kind;
  if (op != 'd') {
    auto t = make(op == 't' ? K::kTuple : K::kList);
    FS_RETURN_IF_ERROR(pop_mark(&t->items));
    push(t);
    return Status::Ok();
  }
  auto t = make(K::kDict);
  std::vector<PyRef> items;
  FS_RETURN_IF_ERROR(pop_mark(&items));
  FS_RETURN_IF_ERROR(set_items(*t, items));
  push(t);
  return Status::Ok();
}

Status Machine::op_append(std::uint8_t) {
  PyRef v = nullptr;
  FS_RETURN_IF_ERROR(pop(&v));
  PyRef* list = nullptr;
  FS_RETURN_IF_ERROR(top(&list));
  (*list)->items.push_back(v);
  return Status::Ok();
}

Status Machine::op_appends(std::uint8_t) {
  std::vector<PyRef> items;
  FS_RETURN_IF_ERROR(pop_mark(&items));
  PyRef* list = nullptr;
  FS_RETURN_IF_ERROR(top(&list));
  for (auto* v : items) (*list)->items.push_back(v);
  return Status::Ok();
}

Status Machine::op_setitem(std::uint8_t) {
  PyRef v = nullptr, k = nullptr;
  FS_RETURN_IF_ERROR(pop(&v));
  FS_RETURN_IF_ERROR(pop(&k));
  PyRef* d = nullptr;
  FS_RETURN_IF_ERROR(top(&d));
  std::vector<PyRef> items{k, v};
  return set_items(**d, items);
}

Status Machine::op_setitems(std::uint8_t) {
  std::vector<PyRef> items;
  FS_RETURN_IF_ERROR(pop_mark(&items));
  PyRef* d = nullptr;
  FS_RETURN_IF_ERROR(top(&d));
  return set_items(**d, items);
}

Status Machine::op_global(std::uint8_t) {  // GLOBAL "module\nname\n"
  std::string module, qual;
  FS_RETURN_IF_ERROR(read_line(&module));
  FS_RETURN_IF_ERROR(read_line(&qual));
  push(str(PyValue::Kind::kGlobal, module + "." + qual));
  return Status::Ok();
}

Status Machine::op_stack_global(std::uint8_t) {
  PyRef qual = nullptr, module = nullptr;
  FS_RETURN_IF_ERROR(pop(&qual));
  FS_RETURN_IF_ERROR(pop(&module));
  push(str(PyValue::Kind::kGlobal, module->s + "." + qual->s));
  return Status::Ok();
}

Status Machine::op_call(std::uint8_t) {  // REDUCE: callable(*args); NEWOBJ: cls.__new__(cls, *args)
  using K = PyValue::Kind;
  PyRef args = nullptr, fn = nullptr;
  FS_RETURN_IF_ERROR(pop(&args));
  FS_RETURN_IF_ERROR(pop(&fn));
  if (!fn->is(K::kGlobal)) return fail("call of something that is not a global");
  if (!args->is(K::kTuple)) return fail("call arguments are not a tuple");
  auto call = str(K::kCall, fn->s);
  call->items = args->items;
  push(call);
  return Status::Ok();
}

Status Machine::op_build(std::uint8_t) {  // BUILD: obj.__setstate__(state)
  PyRef state = nullptr;
  FS_RETURN_IF_ERROR(pop(&state));
  PyRef* obj = nullptr;
  FS_RETURN_IF_ERROR(top(&obj));
  (*obj)->state = state;
  return Status::Ok();
}

Status Machine::op_persid(std::uint8_t) {  // BINPERSID
  PyRef pid = nullptr;
  FS_RETURN_IF_ERROR(pop(&pid));
  auto v = make(PyValue::Kind::kPersistent);
  v->items = pid->is(PyValue::Kind::kTuple) ? pid->items : std::vector<PyRef>{pid};
  push(v);
  return Status::Ok();
}

Status Machine::op_put(std::uint8_t op) {  // BINPUT, LONG_BINPUT
  int width = op == 'q' ? 1 : 4;
  if (!need(static_cast<std::size_t>(width))) return fail("truncated PUT");
  std::uint64_t key = le(width);
  PyRef* v = nullptr;
  FS_RETURN_IF_ERROR(top(&v));
  memo_[key] = *v;
  return Status::Ok();
}

Status Machine::op_memoize(std::uint8_t) {
  PyRef* v = nullptr;
  FS_RETURN_IF_ERROR(top(&v));
  memo_[memo_.size()] = *v;
  return Status::Ok();
}

Status Machine::op_get(std::uint8_t op) {  // BINGET, LONG_BINGET
  int width = op == 'h' ? 1 : 4;
  if (!need(static_cast<std::size_t>(width))) return fail("truncated GET");
  auto it = memo_.find(le(width));
  if (it == memo_.end()) return fail("GET of a memo entry that was never PUT");
  push(it->second);
  return Status::Ok();
}

Status Machine::op_pop(std::uint8_t) {
  PyRef v = nullptr;
  return pop(&v);
}

Status Machine::op_pop_mark(std::uint8_t) {
  std::vector<PyRef> items;
  return pop_mark(&items);
}

Status Machine::op_dup(std::uint8_t) {
  PyRef* v = nullptr;
  FS_RETURN_IF_ERROR(top(&v));
  push(*v);
  return Status::Ok();
}

}  // namespace

StatusOr<Unpickled> unpickle(std::span<const std::uint8_t> bytes, const std::string& name) {
  Machine m(bytes, name);
  return m.run();
}

}  // namespace flopscope
